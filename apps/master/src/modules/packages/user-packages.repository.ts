import type { UserPackageLimits, UserPackageListQuery, UserPackageView } from '@rampart/contracts';
import type { Selectable } from 'kysely';
import type { UserPackagesTable } from '../../db/schema-packages.ts';
import { AppError } from '../../errors.ts';
import type { Owner } from '../tenancy.ts';
import { presentTime } from './bounds.ts';
import { type Db, limitsOf } from './catalogue.repository.ts';
import { featureSet, forbiddenList } from './package-features.ts';

export type UserPackageRow = Selectable<UserPackagesTable>;

/** One user package in the caller's scope (their own; with the admin scope any), or not_found. */
export async function findUserPackage(db: Db, id: number, owner: Owner): Promise<UserPackageRow> {
  const row = await db
    .selectFrom('user_packages')
    .selectAll()
    .where('id', '=', id)
    .$if(owner.kind !== 'admin', (qb) => qb.where('user_id', '=', owner.userId))
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `user package ${id} does not exist`);
  return row;
}

/** The limits of user packages now: their package's plus every upgrade pack still in force. */
export async function limitsOfUserPackages(db: Db, rows: readonly UserPackageRow[], now = Date.now()) {
  const limits = new Map<number, UserPackageLimits>();
  if (rows.length === 0) return limits;
  const packageIds = [...new Set(rows.map((row) => row.package_id))];
  const [packages, upgrades] = await Promise.all([
    db.selectFrom('packages').selectAll().where('id', 'in', packageIds).execute(),
    db
      .selectFrom('user_package_upgrades')
      .select(['user_package_id', 'kind', 'adds'])
      .where(
        'user_package_id',
        'in',
        rows.map((row) => row.id),
      )
      .where('end_at', '>', now)
      .execute(),
  ]);
  for (const row of rows) {
    const pkg = packages.find((entry) => entry.id === row.package_id);
    if (!pkg) continue;
    const total = { ...limitsOf(pkg) };
    for (const upgrade of upgrades.filter((entry) => entry.user_package_id === row.id)) {
      const kind = upgrade.kind as keyof UserPackageLimits;
      // An unlimited figure (0 for traffic and bandwidth) stays unlimited.
      if (kind in total && !(total[kind] === 0 && (kind === 'traffic_gb' || kind === 'bandwidth_mbps'))) {
        total[kind] += upgrade.adds;
      }
    }
    limits.set(row.id, total);
  }
  return limits;
}

/** How much of each user package its sites and streams use. */
async function usedBy(db: Db, ids: readonly number[]) {
  const used = new Map<number, { sites: number; domains: number; streams: number }>();
  if (ids.length === 0) return used;
  const [sites, domains, streams] = await Promise.all([
    db
      .selectFrom('sites')
      .select(['user_package_id', (eb) => eb.fn.countAll().as('n')])
      .where('user_package_id', 'in', ids)
      .groupBy('user_package_id')
      .execute(),
    db
      .selectFrom('site_domains')
      .innerJoin('sites', 'sites.id', 'site_domains.site_id')
      .select(['sites.user_package_id', (eb) => eb.fn.countAll().as('n')])
      .where('sites.user_package_id', 'in', ids)
      .groupBy('sites.user_package_id')
      .execute(),
    db
      .selectFrom('streams')
      .select(['user_package_id', (eb) => eb.fn.countAll().as('n')])
      .where('user_package_id', 'in', ids)
      .groupBy('user_package_id')
      .execute(),
  ]);
  const count = (list: { user_package_id: number | null; n: unknown }[], id: number) =>
    Number(list.find((entry) => entry.user_package_id === id)?.n ?? 0);
  for (const id of ids)
    used.set(id, { sites: count(sites, id), domains: count(domains, id), streams: count(streams, id) });
  return used;
}

export async function presentUserPackages(db: Db, rows: readonly UserPackageRow[]): Promise<UserPackageView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [limits, used, names] = await Promise.all([
    limitsOfUserPackages(db, rows),
    usedBy(db, ids),
    db
      .selectFrom('user_packages')
      .innerJoin('users', 'users.id', 'user_packages.user_id')
      .innerJoin('packages', 'packages.id', 'user_packages.package_id')
      .select(['user_packages.id', 'users.username', 'packages.name as package_name', 'packages.forbidden_features'])
      .where('user_packages.id', 'in', ids)
      .execute(),
  ]);
  const now = Date.now();
  return rows.map((row) => {
    const name = names.find((entry) => entry.id === row.id);
    return {
      id: row.id,
      user_id: row.user_id,
      username: name?.username ?? '',
      package_id: row.package_id,
      package_name: name?.package_name ?? '',
      name: row.name,
      term: row.term,
      // A package past its end reads as expired even before the expiry task has marked it.
      state: row.state === 'active' && row.end_at <= now ? 'expired' : row.state,
      auto_renew: row.auto_renew === 1,
      traffic_exceeded: row.traffic_exceeded === 1,
      start_at: presentTime(row.start_at),
      end_at: presentTime(row.end_at),
      limits: limits.get(row.id) ?? {
        traffic_gb: 0,
        bandwidth_mbps: 0,
        max_sites: 0,
        max_domains: 0,
        max_streams: 0,
        max_ports: 0,
      },
      used: used.get(row.id) ?? { sites: 0, domains: 0, streams: 0 },
      features: featureSet(forbiddenList(name?.forbidden_features ?? '[]')),
      created_at: presentTime(row.created_at),
    };
  });
}

export async function listUserPackages(db: Db, owner: Owner, query: UserPackageListQuery) {
  const page = query.page ?? 1;
  const limit = query.limit ?? 20;
  const now = Date.now();
  const scoped = db
    .selectFrom('user_packages')
    .$if(owner.kind !== 'admin', (qb) => qb.where('user_id', '=', owner.userId))
    .$if(owner.kind === 'admin' && query.user_id !== undefined, (qb) => qb.where('user_id', '=', query.user_id ?? 0))
    .$if(query.package_id !== undefined, (qb) => qb.where('package_id', '=', query.package_id ?? 0))
    .$if(query.state === 'suspended', (qb) => qb.where('state', '=', 'suspended'))
    .$if(query.state === 'active', (qb) => qb.where('state', '=', 'active').where('end_at', '>', now))
    .$if(query.state === 'expired', (qb) =>
      qb.where((eb) =>
        eb.or([eb('state', '=', 'expired'), eb.and([eb('state', '=', 'active'), eb('end_at', '<=', now)])]),
      ),
    )
    .$if(query.ends_before !== undefined, (qb) => qb.where('end_at', '<', Date.parse(query.ends_before ?? '') || 0));
  const [rows, count] = await Promise.all([
    scoped
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: await presentUserPackages(db, rows), total: Number(count.n) };
}
