import {
  CouponBody,
  CouponHistoryQuery,
  CouponHistoryView,
  CouponUpdate,
  CouponView,
  DiscountBody,
  DiscountUpdate,
  DiscountView,
  Envelope,
  IdParams,
  ListQuery,
  ListResult,
  PackageBody,
  PackageGroupBody,
  PackageGroupUpdate,
  PackageGroupView,
  PackageListQuery,
  PackageUpBody,
  PackageUpdate,
  PackageUpUpdate,
  PackageUpView,
  PackageView,
  PERMISSIONS,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy, scopeOf } from '../../plugins/route-policy.ts';
import {
  presentCoupon,
  presentPackageUp,
  readDiscounts,
  readPackageGroups,
  readPackages,
} from './catalogue.repository.ts';
import {
  createPackage,
  deleteCoupon,
  deleteDiscount,
  deletePackage,
  deletePackageGroup,
  deletePackageUp,
  saveCoupon,
  saveDiscount,
  savePackageGroup,
  savePackageUp,
  updatePackage,
} from './catalogue.service.ts';

const tags = ['packages'];

/** The one row a read by id found (the id was checked or just written). */
const only = <T>(list: readonly T[]): T => {
  const [item] = list;
  if (item === undefined) throw new AppError('not_found', 'it no longer exists');
  return item;
};
/** Reads: everyone signed in sees what is on sale to them; admin:package sees the whole catalogue. */
const onSaleToCaller = policy.tenant(PERMISSIONS.adminPackage);
/** Writes, and the coupons: admin:package only. */
const packageAdmin = policy.admin(PERMISSIONS.adminPackage);
/** Whether the call sees the whole catalogue (the admin:package scope), not only what is on sale to the caller. */
const wholeCatalogue = (request: FastifyRequest) => scopeOf(request).kind === 'admin';

/** The package groups the caller's user group may buy from (null: all). */
async function customerGroups(context: AppContext, request: FastifyRequest) {
  const row = await context.db
    .selectFrom('users')
    .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
    .select('user_groups.package_groups')
    .where('users.id', '=', scopeOf(request).userId)
    .executeTakeFirst();
  return row?.package_groups ? (JSON.parse(row.package_groups) as number[]) : null;
}

/**
 * The catalogue: package groups, packages, upgrade packs and discounts (customers read what is on
 * sale to them; admins holding admin:package read all and write), and coupons with their history
 * (admin:package only).
 */
export async function catalogueRoutes(app: App, context: AppContext) {
  const { db } = context;

  // ---- package groups
  const visibleGroups = async (request: FastifyRequest, id?: number) => {
    const list = await readPackageGroups(db, id);
    if (wholeCatalogue(request)) return list;
    const groups = await customerGroups(context, request);
    return groups ? list.filter((group) => groups.includes(group.id)) : list;
  };
  app.get(
    '/v1/package-groups',
    {
      config: { policy: onSaleToCaller },
      schema: { tags, response: { 200: Envelope(ListResult(PackageGroupView)) } },
    },
    async (request) => {
      const list = await visibleGroups(request);
      return ok({ list, total: list.length });
    },
  );
  app.post(
    '/v1/package-groups',
    {
      config: { policy: packageAdmin },
      schema: { tags, body: PackageGroupBody, response: { 200: Envelope(PackageGroupView) } },
    },
    async (request) => {
      const id = await savePackageGroup(db, null, request.body);
      return ok(only(await readPackageGroups(db, id)));
    },
  );
  app.get(
    '/v1/package-groups/:id',
    {
      config: { policy: onSaleToCaller },
      schema: { tags, params: IdParams, response: { 200: Envelope(PackageGroupView) } },
    },
    async (request) => {
      const [group] = await visibleGroups(request, request.params.id);
      if (!group) throw new AppError('not_found', `package group ${request.params.id} does not exist`);
      return ok(group);
    },
  );
  app.put(
    '/v1/package-groups/:id',
    {
      config: { policy: packageAdmin },
      schema: { tags, params: IdParams, body: PackageGroupUpdate, response: { 200: Envelope(PackageGroupView) } },
    },
    async (request) => {
      await savePackageGroup(db, request.params.id, request.body);
      return ok(only(await readPackageGroups(db, request.params.id)));
    },
  );
  app.delete(
    '/v1/package-groups/:id',
    { config: { policy: packageAdmin }, schema: { tags, params: IdParams } },
    async (request) => {
      await deletePackageGroup(db, request.params.id);
      return ok(null);
    },
  );

  // ---- packages
  app.get(
    '/v1/packages',
    {
      config: { policy: onSaleToCaller },
      schema: {
        tags,
        description: 'Admins: every package. Customers: the packages on sale to their user group, in buy-page order.',
        querystring: PackageListQuery,
        response: { 200: Envelope(ListResult(PackageView)) },
      },
    },
    async (request) => {
      const query = request.query;
      const customer = !wholeCatalogue(request);
      const all = await readPackages(db, {
        ...(query.group_id !== undefined && { groupId: query.group_id }),
        ...(customer ? { onSale: true } : query.on_sale !== undefined && { onSale: query.on_sale }),
        ...(query.name && { name: query.name }),
        ...(customer && { groupIds: await customerGroups(context, request) }),
      });
      const page = query.page ?? 1;
      const limit = query.limit ?? 100;
      return ok({ list: all.slice((page - 1) * limit, page * limit), total: all.length });
    },
  );
  app.post(
    '/v1/packages',
    {
      config: { policy: packageAdmin },
      schema: { tags, body: PackageBody, response: { 200: Envelope(PackageView) } },
    },
    async (request) => {
      const id = await createPackage(db, request.body);
      return ok(only(await readPackages(db, { id })));
    },
  );
  app.get(
    '/v1/packages/:id',
    {
      config: { policy: onSaleToCaller },
      schema: { tags, params: IdParams, response: { 200: Envelope(PackageView) } },
    },
    async (request) => {
      const [pkg] = await readPackages(db, {
        id: request.params.id,
        ...(!wholeCatalogue(request) && { onSale: true, groupIds: await customerGroups(context, request) }),
      });
      if (!pkg) throw new AppError('not_found', `package ${request.params.id} does not exist`);
      return ok(pkg);
    },
  );
  app.put(
    '/v1/packages/:id',
    {
      config: { policy: packageAdmin },
      schema: { tags, params: IdParams, body: PackageUpdate, response: { 200: Envelope(PackageView) } },
    },
    async (request) => {
      await updatePackage(db, request.params.id, request.body);
      return ok(only(await readPackages(db, { id: request.params.id })));
    },
  );
  app.delete(
    '/v1/packages/:id',
    { config: { policy: packageAdmin }, schema: { tags, params: IdParams } },
    async (request) => {
      await deletePackage(db, request.params.id);
      return ok(null);
    },
  );

  // ---- upgrade packs
  const readPackUps = async (request: FastifyRequest, id?: number) => {
    const rows = await db
      .selectFrom('package_ups')
      .selectAll()
      .$if(id !== undefined, (qb) => qb.where('id', '=', id ?? 0))
      .$if(!wholeCatalogue(request), (qb) => qb.where('on_sale', '=', 1))
      .orderBy('sort')
      .orderBy('id')
      .execute();
    return rows.map(presentPackageUp);
  };
  app.get(
    '/v1/package-ups',
    { config: { policy: onSaleToCaller }, schema: { tags, response: { 200: Envelope(ListResult(PackageUpView)) } } },
    async (request) => {
      const list = await readPackUps(request);
      return ok({ list, total: list.length });
    },
  );
  app.post(
    '/v1/package-ups',
    {
      config: { policy: packageAdmin },
      schema: { tags, body: PackageUpBody, response: { 200: Envelope(PackageUpView) } },
    },
    async (request) => {
      const id = await savePackageUp(db, null, request.body);
      return ok(only(await readPackUps(request, id)));
    },
  );
  app.get(
    '/v1/package-ups/:id',
    {
      config: { policy: onSaleToCaller },
      schema: { tags, params: IdParams, response: { 200: Envelope(PackageUpView) } },
    },
    async (request) => {
      const [pack] = await readPackUps(request, request.params.id);
      if (!pack) throw new AppError('not_found', `upgrade pack ${request.params.id} does not exist`);
      return ok(pack);
    },
  );
  app.put(
    '/v1/package-ups/:id',
    {
      config: { policy: packageAdmin },
      schema: { tags, params: IdParams, body: PackageUpUpdate, response: { 200: Envelope(PackageUpView) } },
    },
    async (request) => {
      await savePackageUp(db, request.params.id, request.body);
      return ok(only(await readPackUps(request, request.params.id)));
    },
  );
  app.delete(
    '/v1/package-ups/:id',
    { config: { policy: packageAdmin }, schema: { tags, params: IdParams } },
    async (request) => {
      await deletePackageUp(db, request.params.id);
      return ok(null);
    },
  );

  // ---- discounts
  app.get(
    '/v1/discounts',
    { config: { policy: onSaleToCaller }, schema: { tags, response: { 200: Envelope(ListResult(DiscountView)) } } },
    async () => {
      const list = await readDiscounts(db);
      return ok({ list, total: list.length });
    },
  );
  app.post(
    '/v1/discounts',
    {
      config: { policy: packageAdmin },
      schema: { tags, body: DiscountBody, response: { 200: Envelope(DiscountView) } },
    },
    async (request) => {
      const id = await saveDiscount(db, null, request.body);
      return ok(only(await readDiscounts(db, id)));
    },
  );
  app.get(
    '/v1/discounts/:id',
    {
      config: { policy: onSaleToCaller },
      schema: { tags, params: IdParams, response: { 200: Envelope(DiscountView) } },
    },
    async (request) => {
      const [discount] = await readDiscounts(db, request.params.id);
      if (!discount) throw new AppError('not_found', `discount ${request.params.id} does not exist`);
      return ok(discount);
    },
  );
  app.put(
    '/v1/discounts/:id',
    {
      config: { policy: packageAdmin },
      schema: { tags, params: IdParams, body: DiscountUpdate, response: { 200: Envelope(DiscountView) } },
    },
    async (request) => {
      await saveDiscount(db, request.params.id, request.body);
      return ok(only(await readDiscounts(db, request.params.id)));
    },
  );
  app.delete(
    '/v1/discounts/:id',
    { config: { policy: packageAdmin }, schema: { tags, params: IdParams } },
    async (request) => {
      await deleteDiscount(db, request.params.id);
      return ok(null);
    },
  );

  // ---- coupons (admin:package only)
  const readCoupon = async (id: number) => {
    const row = await db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('not_found', `coupon ${id} does not exist`);
    return presentCoupon(row);
  };
  app.get(
    '/v1/coupons',
    {
      config: { policy: packageAdmin },
      schema: { tags, querystring: ListQuery, response: { 200: Envelope(ListResult(CouponView)) } },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? 20;
      const [rows, count] = await Promise.all([
        db
          .selectFrom('coupons')
          .selectAll()
          .orderBy('id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        db
          .selectFrom('coupons')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return ok({ list: rows.map(presentCoupon), total: Number(count.n) });
    },
  );
  app.post(
    '/v1/coupons',
    {
      config: { policy: packageAdmin },
      schema: { tags, body: CouponBody, response: { 200: Envelope(CouponView) } },
    },
    async (request) => ok(await readCoupon(await saveCoupon(db, null, request.body))),
  );
  app.get(
    '/v1/coupons/:id',
    {
      config: { policy: packageAdmin },
      schema: { tags, params: IdParams, response: { 200: Envelope(CouponView) } },
    },
    async (request) => ok(await readCoupon(request.params.id)),
  );
  app.put(
    '/v1/coupons/:id',
    {
      config: { policy: packageAdmin },
      schema: { tags, params: IdParams, body: CouponUpdate, response: { 200: Envelope(CouponView) } },
    },
    async (request) => ok(await readCoupon(await saveCoupon(db, request.params.id, request.body))),
  );
  app.delete(
    '/v1/coupons/:id',
    { config: { policy: packageAdmin }, schema: { tags, params: IdParams } },
    async (request) => {
      await deleteCoupon(db, request.params.id);
      return ok(null);
    },
  );
  app.get(
    '/v1/coupon-historys',
    {
      config: { policy: packageAdmin },
      schema: { tags, querystring: CouponHistoryQuery, response: { 200: Envelope(ListResult(CouponHistoryView)) } },
    },
    async (request) => {
      const { coupon_id, user_id } = request.query;
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? 20;
      const scoped = db
        .selectFrom('coupon_history')
        .$if(coupon_id !== undefined, (qb) => qb.where('coupon_history.coupon_id', '=', coupon_id ?? 0))
        .$if(user_id !== undefined, (qb) => qb.where('coupon_history.user_id', '=', user_id ?? 0));
      const [rows, count] = await Promise.all([
        scoped
          .innerJoin('coupons', 'coupons.id', 'coupon_history.coupon_id')
          .innerJoin('users', 'users.id', 'coupon_history.user_id')
          .selectAll('coupon_history')
          .select(['coupons.code', 'users.username'])
          .orderBy('coupon_history.id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      ]);
      return ok({
        list: rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() })),
        total: Number(count.n),
      });
    },
  );
}
