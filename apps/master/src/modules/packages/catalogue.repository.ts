import type {
  CouponView,
  DiscountView,
  PackageGroupView,
  PackageUpView,
  PackageView,
  UserPackageLimits,
} from '@rampart/contracts';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CouponsTable, PackagesTable, PackageUpsTable } from '../../db/schema-packages.ts';
import { featureSet, forbiddenList } from './package-features.ts';

export type Db = Kysely<Database> | Transaction<Database>;
export type PackageRow = Selectable<PackagesTable>;
export type PackageUpRow = Selectable<PackageUpsTable>;
export type CouponRow = Selectable<CouponsTable>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
export const idList = (json: string) => JSON.parse(json) as number[];

export async function readPackageGroups(db: Db, id?: number): Promise<PackageGroupView[]> {
  const rows = await db
    .selectFrom('package_groups')
    .selectAll()
    .$if(id !== undefined, (qb) => qb.where('id', '=', id ?? 0))
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const counts = await db
    .selectFrom('packages')
    .select(['group_id', (eb) => eb.fn.countAll().as('n')])
    .groupBy('group_id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    sort: row.sort,
    description: row.description,
    package_count: Number(counts.find((count) => count.group_id === row.id)?.n ?? 0),
  }));
}

export const limitsOf = (row: PackageRow): UserPackageLimits => ({
  traffic_gb: row.traffic_gb,
  bandwidth_mbps: row.bandwidth_mbps,
  max_sites: row.max_sites,
  max_domains: row.max_domains,
  max_streams: row.max_streams,
  max_ports: row.max_ports,
});

export function presentPackage(row: PackageRow & { group_name: string | null }, sold: number): PackageView {
  return {
    id: row.id,
    name: row.name,
    group_id: row.group_id,
    group_name: row.group_name,
    line_group_id: row.line_group_id,
    description: row.description,
    price_month: row.price_month,
    price_quarter: row.price_quarter,
    price_year: row.price_year,
    ...limitsOf(row),
    billing: row.billing,
    ...featureSet(forbiddenList(row.forbidden_features)),
    cc_rule_group_ids: idList(row.cc_rule_group_ids),
    custom_cname: row.custom_cname === 1,
    sort: row.sort,
    on_sale: row.on_sale === 1,
    stock: row.stock,
    sold,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Packages (one, or a filtered list) in buy-page order, with their group's name and how many sold. */
export async function readPackages(
  db: Db,
  filter: { id?: number; groupId?: number; onSale?: boolean; name?: string; groupIds?: readonly number[] | null },
): Promise<PackageView[]> {
  const all = await db
    .selectFrom('packages')
    .leftJoin('package_groups', 'package_groups.id', 'packages.group_id')
    .selectAll('packages')
    .select('package_groups.name as group_name')
    .$if(filter.id !== undefined, (qb) => qb.where('packages.id', '=', filter.id ?? 0))
    .$if(filter.groupId !== undefined, (qb) => qb.where('packages.group_id', '=', filter.groupId ?? 0))
    .$if(filter.onSale !== undefined, (qb) => qb.where('packages.on_sale', '=', filter.onSale ? 1 : 0))
    .$if(Array.isArray(filter.groupIds), (qb) =>
      qb.where('packages.group_id', 'in', filter.groupIds?.length ? filter.groupIds : [0]),
    )
    .orderBy('package_groups.sort')
    .orderBy('packages.sort')
    .orderBy('packages.id')
    .execute();
  const needle = filter.name?.toLowerCase();
  // A catalogue holds tens of packages: the name filter runs here, not as a LIKE pattern.
  const rows = needle ? all.filter((row) => row.name.toLowerCase().includes(needle)) : all;
  if (rows.length === 0) return [];
  const sold = await db
    .selectFrom('user_packages')
    .select(['package_id', (eb) => eb.fn.countAll().as('n')])
    .where(
      'package_id',
      'in',
      rows.map((row) => row.id),
    )
    .groupBy('package_id')
    .execute();
  return rows.map((row) => presentPackage(row, Number(sold.find((entry) => entry.package_id === row.id)?.n ?? 0)));
}

export function presentPackageUp(row: PackageUpRow): PackageUpView {
  return {
    id: row.id,
    name: row.name,
    package_ids: idList(row.package_ids),
    kind: row.kind,
    amount: row.amount,
    price_month: row.price_month,
    on_sale: row.on_sale === 1,
    sort: row.sort,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export async function readDiscounts(db: Db, id?: number): Promise<DiscountView[]> {
  const rows = await db
    .selectFrom('discounts')
    .leftJoin('packages', 'packages.id', 'discounts.package_id')
    .selectAll('discounts')
    .select('packages.name as package_name')
    .$if(id !== undefined, (qb) => qb.where('discounts.id', '=', id ?? 0))
    .orderBy('discounts.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    package_id: row.package_id,
    package_name: row.package_name,
    term: row.term,
    percent: row.percent,
    created_at: new Date(row.created_at).toISOString(),
  }));
}

export function presentCoupon(row: CouponRow): CouponView {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    value: row.value,
    min_spend: row.min_spend,
    package_ids: idList(row.package_ids),
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    uses_per_user: row.uses_per_user,
    uses_total: row.uses_total,
    used: row.used,
    enabled: row.enabled === 1,
    created_at: new Date(row.created_at).toISOString(),
  };
}
