import {
  Envelope,
  IdParams,
  ListResult,
  PERMISSIONS,
  PriceQuote,
  SitePackageFeatures,
  UpgradeBuy,
  UpgradeExtend,
  UpgradeExtendResult,
  UpgradeParams,
  UpgradeQuote,
  UpgradeQuoteQuery,
  UpgradeView,
  UserPackageBatch,
  UserPackageBuy,
  UserPackageListQuery,
  UserPackagePurchase,
  UserPackageStanding,
  UserPackageUpdate,
  UserPackageView,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { findSite } from '../sites/sites.repository.ts';
import { ownerOf } from '../tenancy.ts';
import { standingOf } from './package-attach.ts';
import { sitePackageFeatures } from './site-features.ts';
import { buyUpgrade, extendUpgrades, listUpgrades, quoteUpgrade, removeUpgrade } from './upgrades.service.ts';
import { findUserPackage, listUserPackages, presentUserPackages } from './user-packages.repository.ts';
import { batchUserPackages, buyPackage, deleteUserPackage, updateUserPackage } from './user-packages.service.ts';

const tags = ['packages'];

/** The one row a read by id found (the id was checked or just written). */
const only = <T>(list: readonly T[]): T => {
  const [item] = list;
  if (item === undefined) throw new AppError('not_found', 'it no longer exists');
  return item;
};
/** Customers act on their own user packages; admin:package opens every user's, and grants and changes the terms. */
const ownOrPackageAdmin = policy.tenant(PERMISSIONS.adminPackage);

const BuyResult = Type.Union([UserPackagePurchase, Type.Object({ quote: PriceQuote })]);
const UpdateResult = Type.Union([UserPackageView, Type.Object({ quote: PriceQuote })]);

/**
 * User packages and their upgrade packs. Customers see and buy their own; admins holding
 * admin:package see all, grant, extend, suspend and delete. Every payment comes from the balance
 * through the ledger.
 */
export async function userPackageRoutes(app: App, { db }: AppContext) {
  const view = async (request: FastifyRequest, id: number) => {
    const row = await findUserPackage(db, id, ownerOf(request));
    return only(await presentUserPackages(db, [row]));
  };

  // Beside the site's own routes in the API, here because it answers from the site's package.
  app.get(
    '/v1/sites/:id/package-features',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminUser) },
      schema: {
        tags: ['sites'],
        description:
          "Which features the site's package lets it turn on (`features`), which it uses (`in_use`), and which of those the package no longer includes (`beyond`: they keep working until turned off). `limited` is false when no package limits the site.",
        params: IdParams,
        response: { 200: Envelope(SitePackageFeatures) },
      },
    },
    async (request) => {
      const row = await findSite(db, ownerOf(request), request.params.id);
      if (!row) throw new AppError('not_found', `site ${request.params.id} does not exist`);
      return ok(await sitePackageFeatures(db, row));
    },
  );

  app.get(
    '/v1/user-packages',
    {
      config: { policy: ownOrPackageAdmin },
      schema: { tags, querystring: UserPackageListQuery, response: { 200: Envelope(ListResult(UserPackageView)) } },
    },
    async (request) => ok(await listUserPackages(db, ownerOf(request), request.query)),
  );

  app.post(
    '/v1/user-packages',
    {
      config: { policy: ownOrPackageAdmin },
      schema: {
        tags,
        description:
          'Buys a package from the balance (`quote: true` only prices it, coupon and discount applied); admins holding admin:package grant one to `user_id` without charge. When the owner then has exactly one active package, their sites and streams without a package join it in id order while they fit its limits and use no site feature it does not include: `attached` counts them, `not_attached` names those that did not join.',
        body: UserPackageBuy,
        response: { 200: Envelope(BuyResult) },
      },
    },
    async (request) => {
      const result = await buyPackage(db, ownerOf(request), request.body);
      if ('quote' in result) return ok(result);
      const { id, attached, not_attached } = result;
      return ok({ ...(await view(request, id)), attached, not_attached });
    },
  );

  app.get(
    '/v1/user-packages/standing',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        description:
          'Whether the signed-in account needs an active package to create a site or a stream (require_package on, a customer, not exempt), how many active packages it has, and its sites and streams that count against none.',
        response: { 200: Envelope(UserPackageStanding) },
      },
    },
    async (request) => ok(await standingOf(db, ownerOf(request).userId)),
  );

  app.put(
    '/v1/user-packages',
    {
      config: { policy: ownOrPackageAdmin },
      schema: {
        tags,
        description:
          'One change to many user packages, all or none: customers set auto-renew on their own; extend_days and state need admin:package.',
        body: UserPackageBatch,
      },
    },
    async (request) => {
      await batchUserPackages(db, ownerOf(request), request.body);
      return ok(null);
    },
  );

  app.get(
    '/v1/user-packages/:id',
    {
      config: { policy: ownOrPackageAdmin },
      schema: { tags, params: IdParams, response: { 200: Envelope(UserPackageView) } },
    },
    async (request) => ok(await view(request, request.params.id)),
  );

  app.put(
    '/v1/user-packages/:id',
    {
      config: { policy: ownOrPackageAdmin },
      schema: {
        tags,
        description:
          'Renames, sets auto-renew, renews from the balance (`renew`); admins holding admin:package also set end_at and state.',
        params: IdParams,
        body: UserPackageUpdate,
        response: { 200: Envelope(UpdateResult) },
      },
    },
    async (request) => {
      const quote = await updateUserPackage(db, ownerOf(request), request.params.id, request.body);
      return ok(quote ? { quote } : await view(request, request.params.id));
    },
  );

  app.delete(
    '/v1/user-packages/:id',
    { config: { policy: policy.admin(PERMISSIONS.adminPackage) }, schema: { tags, params: IdParams } },
    async (request) => {
      await deleteUserPackage(db, ownerOf(request), request.params.id);
      return ok(null);
    },
  );

  // ---- upgrades
  app.get(
    '/v1/user-package/:id/upgrades',
    {
      config: { policy: ownOrPackageAdmin },
      schema: { tags, params: IdParams, response: { 200: Envelope(ListResult(UpgradeView)) } },
    },
    async (request) => {
      const list = await listUpgrades(db, ownerOf(request), request.params.id);
      return ok({ list, total: list.length });
    },
  );

  app.post(
    '/v1/user-package/:id/upgrades',
    {
      config: { policy: ownOrPackageAdmin },
      schema: {
        tags,
        description: 'Buys upgrade packs, prorated by the day to the package’s end, from the balance.',
        params: IdParams,
        body: UpgradeBuy,
        response: { 200: Envelope(ListResult(UpgradeView)) },
      },
    },
    async (request) => {
      await buyUpgrade(db, ownerOf(request), request.params.id, request.body);
      const list = await listUpgrades(db, ownerOf(request), request.params.id);
      return ok({ list, total: list.length });
    },
  );

  app.put(
    '/v1/user-package/:id/upgrades',
    {
      config: { policy: ownOrPackageAdmin },
      schema: {
        tags,
        description:
          'Carries every upgrade that ends before the package up to its end (after a renewal), paid from the balance; `quote: true` answers the price without paying, and `price` (the quote agreed to) is refused if the price changed since.',
        params: IdParams,
        body: UpgradeExtend,
        response: { 200: Envelope(UpgradeExtendResult) },
      },
    },
    async (request) => ok(await extendUpgrades(db, ownerOf(request), request.params.id, request.body)),
  );

  app.get(
    '/v1/user-package/:upid/upgrades/:package_up_id',
    {
      config: { policy: ownOrPackageAdmin },
      schema: {
        tags,
        description: 'Quotes `amount` packs (default 1) to the package’s end.',
        params: UpgradeParams,
        querystring: UpgradeQuoteQuery,
        response: { 200: Envelope(UpgradeQuote) },
      },
    },
    async (request) =>
      ok(
        await quoteUpgrade(
          db,
          ownerOf(request),
          request.params.upid,
          request.params.package_up_id,
          request.query.amount ?? 1,
        ),
      ),
  );

  app.delete(
    '/v1/user-package/:upid/upgrades/:package_up_id',
    {
      config: { policy: ownOrPackageAdmin },
      schema: {
        tags,
        description: 'Removes the pack at once; what is left of it is not refunded.',
        params: UpgradeParams,
      },
    },
    async (request) => {
      await removeUpgrade(db, ownerOf(request), request.params.upid, request.params.package_up_id);
      return ok(null);
    },
  );
}
