import type {
  CouponBody,
  CouponUpdate,
  DiscountBody,
  DiscountUpdate,
  PackageBody,
  PackageFeature,
  PackageGroupBody,
  PackageGroupUpdate,
  PackageUpBody,
  PackageUpdate,
  PackageUpUpdate,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { Db } from './catalogue.repository.ts';
import { publishPackageStates } from './package-expiry.ts';
import { forbiddenAfter, forbiddenList } from './package-features.ts';

/** Writes to the catalogue (package groups, packages, upgrade packs, discounts, coupons), each checked. */

const notFound = (what: string, id: number) => new AppError('not_found', `${what} ${id} does not exist`);
const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
const defined = <T extends object>(row: T) =>
  Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)) as Partial<T>;

async function requireIds(db: Db, table: 'packages' | 'cc_rule_groups', ids: readonly number[], field: string) {
  if (ids.length === 0) return;
  const found = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  const missing = ids.find((id) => !found.some((row) => row.id === id));
  if (missing !== undefined)
    throw new AppError('not_found', `${field}: ${table.replace('_', ' ')} ${missing} does not exist`);
}

// ---- package groups

export async function savePackageGroup(db: Db, id: number | null, body: PackageGroupBody | PackageGroupUpdate) {
  const values = defined({ name: body.name, sort: body.sort, description: body.description });
  if (id === null) {
    const row = await db
      .insertInto('package_groups')
      .values({ name: body.name ?? '', ...values, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const exists = await db.selectFrom('package_groups').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw notFound('package group', id);
  if (Object.keys(values).length > 0) await db.updateTable('package_groups').set(values).where('id', '=', id).execute();
  return id;
}

export async function deletePackageGroup(db: Db, id: number) {
  const result = await db.deleteFrom('package_groups').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('package group', id);
}

// ---- packages

async function checkPackage(db: Db, body: PackageUpdate) {
  if (body.group_id != null) {
    const group = await db.selectFrom('package_groups').select('id').where('id', '=', body.group_id).executeTakeFirst();
    if (!group) throw new AppError('not_found', `group_id: package group ${body.group_id} does not exist`);
  }
  if (body.line_group_id != null) {
    const group = await db
      .selectFrom('node_groups')
      .select('id')
      .where('id', '=', body.line_group_id)
      .executeTakeFirst();
    if (!group) throw new AppError('not_found', `line_group_id: line group ${body.line_group_id} does not exist`);
  }
  if (body.cc_rule_group_ids) await requireIds(db, 'cc_rule_groups', body.cc_rule_group_ids, 'cc_rule_group_ids');
}

function packageValues(body: PackageUpdate) {
  return defined({
    name: body.name,
    group_id: body.group_id,
    line_group_id: body.line_group_id,
    description: body.description,
    price_month: body.price_month,
    price_quarter: body.price_quarter,
    price_year: body.price_year,
    traffic_gb: body.traffic_gb,
    bandwidth_mbps: body.bandwidth_mbps,
    max_sites: body.max_sites,
    max_domains: body.max_domains,
    max_streams: body.max_streams,
    max_ports: body.max_ports,
    billing: body.billing,
    cc_rule_group_ids: body.cc_rule_group_ids && JSON.stringify(body.cc_rule_group_ids),
    custom_cname: flag(body.custom_cname),
    sort: body.sort,
    on_sale: flag(body.on_sale),
    stock: body.stock,
  });
}

/** The feature switches a body sets, stored as the forbidden list (and mirrored into the old https and waf flags). */
function featureValues(current: readonly PackageFeature[], body: PackageUpdate) {
  const forbidden = forbiddenAfter(current, body);
  return {
    forbidden_features: JSON.stringify(forbidden),
    https: forbidden.includes('https') ? 0 : 1,
    waf: forbidden.includes('waf') ? 0 : 1,
  };
}

/** A package on sale must have a price for at least one term. */
function checkPrices(row: {
  on_sale?: number;
  price_month?: number | null;
  price_quarter?: number | null;
  price_year?: number | null;
}) {
  if (row.on_sale === 1 && row.price_month == null && row.price_quarter == null && row.price_year == null) {
    throw invalidParam('price_month', 'a package on sale needs a price for at least one term (month, quarter or year)');
  }
}

export async function createPackage(db: Db, body: PackageBody) {
  await checkPackage(db, body);
  const values = { ...packageValues(body), ...featureValues([], body) };
  checkPrices(values);
  const now = Date.now();
  const row = await db
    .insertInto('packages')
    .values({ name: body.name, ...values, created_at: now, updated_at: now, stock: body.stock ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePackage(db: Kysely<Database>, id: number, body: PackageUpdate) {
  const current = await db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
  if (!current) throw notFound('package', id);
  await checkPackage(db, body);
  const values = { ...packageValues(body), ...featureValues(forbiddenList(current.forbidden_features), body) };
  checkPrices({ ...current, ...values });
  await db
    .updateTable('packages')
    .set({ ...values, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
  // The bandwidth is the cap the sites of its user packages carry in the snapshot.
  if (values.bandwidth_mbps !== undefined && values.bandwidth_mbps !== current.bandwidth_mbps) {
    const sold = await db.selectFrom('user_packages').select('id').where('package_id', '=', id).execute();
    await publishPackageStates(
      db,
      sold.map((row) => row.id),
    );
  }
}

/** Deleting a package that was sold would orphan its user packages: take it off sale instead. */
export async function deletePackage(db: Db, id: number) {
  const sold = await db
    .selectFrom('user_packages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('package_id', '=', id)
    .executeTakeFirstOrThrow();
  if (Number(sold.n) > 0) {
    throw new AppError(
      'conflict',
      `package ${id} has ${sold.n} user package(s); take it off sale instead of deleting it`,
    );
  }
  const result = await db.deleteFrom('packages').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('package', id);
}

// ---- upgrade packs

export async function savePackageUp(db: Db, id: number | null, body: PackageUpBody | PackageUpUpdate) {
  if (body.package_ids) await requireIds(db, 'packages', body.package_ids, 'package_ids');
  const values = defined({
    name: body.name,
    package_ids: body.package_ids && JSON.stringify(body.package_ids),
    kind: body.kind,
    amount: body.amount,
    price_month: body.price_month,
    on_sale: flag(body.on_sale),
    sort: body.sort,
  });
  if (id === null) {
    const full = body as PackageUpBody;
    const row = await db
      .insertInto('package_ups')
      .values({
        name: full.name,
        kind: full.kind,
        amount: full.amount,
        price_month: full.price_month,
        ...values,
        on_sale: values.on_sale ?? 1,
        created_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const exists = await db.selectFrom('package_ups').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw notFound('upgrade pack', id);
  if (Object.keys(values).length > 0) await db.updateTable('package_ups').set(values).where('id', '=', id).execute();
  return id;
}

export async function deletePackageUp(db: Db, id: number) {
  const used = await db
    .selectFrom('user_package_upgrades')
    .select('id')
    .where('package_up_id', '=', id)
    .executeTakeFirst();
  if (used) throw new AppError('conflict', `upgrade pack ${id} is in force on user packages; take it off sale instead`);
  const result = await db.deleteFrom('package_ups').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('upgrade pack', id);
}

// ---- discounts

export async function saveDiscount(db: Db, id: number | null, body: DiscountBody | DiscountUpdate) {
  const current =
    id === null ? null : await db.selectFrom('discounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (id !== null && !current) throw notFound('discount', id);
  const packageId = body.package_id !== undefined ? body.package_id : (current?.package_id ?? null);
  const term = body.term ?? current?.term ?? 'month';
  if (packageId !== null) await requireIds(db, 'packages', [packageId], 'package_id');
  const clash = await db
    .selectFrom('discounts')
    .select('id')
    .where('term', '=', term)
    .where((eb) => (packageId === null ? eb('package_id', 'is', null) : eb('package_id', '=', packageId)))
    .$if(id !== null, (qb) => qb.where('id', '!=', id ?? 0))
    .executeTakeFirst();
  if (clash) {
    throw new AppError('conflict', `term: discount ${clash.id} already sets the ${term} price of the same package`);
  }
  if (id === null) {
    const full = body as DiscountBody;
    const row = await db
      .insertInto('discounts')
      .values({ package_id: packageId, term, percent: full.percent, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const values = defined({ package_id: body.package_id, term: body.term, percent: body.percent });
  if (Object.keys(values).length > 0) await db.updateTable('discounts').set(values).where('id', '=', id).execute();
  return id;
}

export async function deleteDiscount(db: Db, id: number) {
  const result = await db.deleteFrom('discounts').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('discount', id);
}

// ---- coupons

const time = (field: string, text: string | null | undefined) => {
  if (text === undefined || text === null) return text;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw invalidParam(field, 'an ISO 8601 time');
  return ms;
};

export async function saveCoupon(db: Db, id: number | null, body: CouponBody | CouponUpdate) {
  const current =
    id === null ? null : await db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirst();
  if (id !== null && !current) throw notFound('coupon', id);
  const values = defined({
    code: body.code?.toUpperCase(),
    kind: body.kind,
    value: body.value,
    min_spend: body.min_spend,
    package_ids: body.package_ids && JSON.stringify(body.package_ids),
    starts_at: time('starts_at', body.starts_at),
    ends_at: time('ends_at', body.ends_at),
    uses_per_user: body.uses_per_user,
    uses_total: body.uses_total,
    enabled: flag(body.enabled),
  });
  const merged = { ...current, ...values };
  if (merged.kind === 'percent' && (merged.value ?? 0) > 100)
    throw invalidParam('value', 'a percent coupon takes 1 to 100');
  if (merged.starts_at != null && merged.ends_at != null && merged.ends_at <= merged.starts_at) {
    throw invalidParam('ends_at', 'must be after starts_at');
  }
  if (body.package_ids) await requireIds(db, 'packages', body.package_ids, 'package_ids');
  if (values.code) {
    const clash = await db
      .selectFrom('coupons')
      .select('id')
      .where('code', '=', values.code)
      .$if(id !== null, (qb) => qb.where('id', '!=', id ?? 0))
      .executeTakeFirst();
    if (clash) throw new AppError('conflict', `code: coupon ${values.code} already exists`);
  }
  if (id === null) {
    const full = body as CouponBody;
    const row = await db
      .insertInto('coupons')
      .values({ code: full.code.toUpperCase(), kind: full.kind, value: full.value, ...values, created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  if (Object.keys(values).length > 0) await db.updateTable('coupons').set(values).where('id', '=', id).execute();
  return id;
}

export async function deleteCoupon(db: Db, id: number) {
  const result = await db.deleteFrom('coupons').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('coupon', id);
}
