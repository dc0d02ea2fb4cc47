import {
  ADMIN_COUNT_ACCESS,
  AdminOverview,
  AdminSetup,
  CountSeries,
  CountSeriesQuery,
  Envelope,
  OrderCountQuery,
  OrderCountSeries,
  UserOverview,
} from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { adminOverview, newUserCount, orderCount, packagesSoldCount, userOverview } from './overview.service.ts';
import { adminSetup } from './setup.service.ts';

const tags = ['overview'];

/** The overview pages' calls: one for each home page, and the admin's daily counts. */
export async function overviewRoutes(app: App, { db, logs, events, messenger }: AppContext) {
  const stores = { db, logs, events };

  app.get(
    '/v1/admin/setup',
    {
      config: { policy: policy.admin() },
      schema: {
        tags,
        description:
          "Admin: the first-run checklist of the home page: a node online, a line group, a CNAME domain on a DNS API, a package on sale, a payment channel enabled, mail that can be sent; each with the dashboard page that sets it up. A step outside the caller's codes is done: null.",
        response: { 200: Envelope(AdminSetup) },
      },
    },
    async (request) => ok(await adminSetup(db, messenger, caller(request).user)),
  );

  app.get(
    '/v1/admin/overview',
    {
      config: { policy: policy.admin() },
      schema: {
        tags,
        description:
          "Admin: nodes online and offline, sites, streams, ordinary users and today's new ones, packages sold and orders paid today, today's traffic (UTC day) with the last 14 days and today's top sites. Each figure is null unless the caller holds a code of its area (ADMIN_OVERVIEW_ACCESS in contracts).",
        response: { 200: Envelope(AdminOverview) },
      },
    },
    async (request) => ok(await adminOverview(stores, caller(request).user, Date.now())),
  );

  app.get(
    '/v1/user/overview',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        description:
          "The caller's sites, streams, certificates expiring within 30 days, today's traffic, requests and blocks (UTC day), this month's traffic and the last 14 days.",
        response: { 200: Envelope(UserOverview) },
      },
    },
    async (request) => ok(await userOverview(stores, caller(request).user.id, Date.now())),
  );

  const countSchema = (description: string) => ({
    tags,
    description: `${description} Days are UTC, from and to included (default: the last 30 days), at most 366 days.`,
    querystring: CountSeriesQuery,
    response: { 200: Envelope(CountSeries) },
  });

  app.get(
    '/v1/new-user/count',
    {
      config: { policy: policy.admin(...ADMIN_COUNT_ACCESS['/v1/new-user/count']) },
      schema: countSchema('Admin: ordinary users registered per day.'),
    },
    async (request) => ok(await newUserCount(stores, request.query, Date.now())),
  );

  app.get(
    '/v1/package-sold/count',
    {
      config: { policy: policy.admin(...ADMIN_COUNT_ACCESS['/v1/package-sold/count']) },
      schema: countSchema('Admin: packages sold (user packages bought or granted) per day.'),
    },
    async (request) => ok(await packagesSoldCount(stores, request.query, Date.now())),
  );

  app.get(
    '/v1/order/count',
    {
      config: { policy: policy.admin(...ADMIN_COUNT_ACCESS['/v1/order/count']) },
      schema: {
        tags,
        description:
          'Admin: paid orders (recharges, purchases, renewals, upgrades, refunds, adjustments, or one `kind` of them) per UTC day of payment, with their sum in cents and the sum per payment channel; from and to included (default: the last 30 days), at most 366 days.',
        querystring: OrderCountQuery,
        response: { 200: Envelope(OrderCountSeries) },
      },
    },
    async (request) => ok(await orderCount(stores, request.query, Date.now())),
  );
}
