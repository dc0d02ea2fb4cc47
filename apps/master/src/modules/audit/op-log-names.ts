import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Names for the ids an operation-log row was written to, so a person reads "shop.example.com"
 * rather than "17": one query per kind of resource per page. A row that is gone (deleted since)
 * reads as its id.
 */

type Named = { table: keyof Database; column: string };

/** The resource of an action (`sites` of `sites.update`, `user.recharge` of `user.recharge.create`) and where its names are. */
const NAMED_BY: Record<string, Named> = {
  sites: { table: 'sites', column: 'name' },
  streams: { table: 'streams', column: 'name' },
  users: { table: 'users', column: 'username' },
  'users.impersonate': { table: 'users', column: 'username' },
  'users.two-factor': { table: 'users', column: 'username' },
  'user.recharge': { table: 'users', column: 'username' },
  packages: { table: 'packages', column: 'name' },
  'package-groups': { table: 'package_groups', column: 'name' },
  'package-ups': { table: 'package_ups', column: 'name' },
  'user-packages': { table: 'user_packages', column: 'name' },
  'user-package.upgrades': { table: 'user_packages', column: 'name' },
  coupons: { table: 'coupons', column: 'code' },
  certs: { table: 'certs', column: 'name' },
  'cname-domains': { table: 'cname_domains', column: 'domain' },
  dnsapis: { table: 'dnsapis', column: 'name' },
  'node-groups': { table: 'node_groups', column: 'name' },
  nodes: { table: 'nodes', column: 'name' },
  'site-groups': { table: 'site_groups', column: 'name' },
  'stream-groups': { table: 'stream_groups', column: 'name' },
  'user-groups': { table: 'user_groups', column: 'name' },
  regions: { table: 'regions', column: 'name' },
  'cc-rules': { table: 'cc_rule_groups', column: 'name' },
  'cc-filters': { table: 'cc_filters', column: 'name' },
  'cc-matchs': { table: 'cc_matches', column: 'name' },
  orders: { table: 'orders', column: 'out_trade_no' },
};

interface LogTargets {
  action: string;
  route: string;
  target_ids: string[];
}

const resourceOf = (action: string) => action.slice(0, action.lastIndexOf('.'));
/**
 * Ids a row names by its resource: on a route with a path parameter only the first (the rest, such
 * as the order a recharge of user :uid made, are of another kind); else every one (body ids, the id
 * a create answered).
 */
const namedIds = (row: LogTargets) => (row.route.includes(':') ? row.target_ids.slice(0, 1) : row.target_ids);
const wholeNumber = (text: string) => /^[1-9][0-9]{0,15}$/.test(text);

/** `target_names` for each row, in the order of its `target_ids`. */
export async function targetNames(db: Kysely<Database>, rows: readonly LogTargets[]): Promise<string[][]> {
  const wanted = new Map<string, Set<number>>();
  for (const row of rows) {
    const resource = resourceOf(row.action);
    if (!NAMED_BY[resource]) continue;
    const ids = wanted.get(resource) ?? new Set<number>();
    for (const id of namedIds(row)) if (wholeNumber(id)) ids.add(Number(id));
    wanted.set(resource, ids);
  }
  // One query per table, whatever resources share it.
  const byTable = new Map<string, { named: Named; ids: Set<number> }>();
  for (const [resource, ids] of wanted) {
    const named = NAMED_BY[resource] as Named;
    const key = `${named.table}.${named.column}`;
    const entry = byTable.get(key) ?? { named, ids: new Set<number>() };
    for (const id of ids) entry.ids.add(id);
    byTable.set(key, entry);
  }
  const names = new Map<string, Map<string, string>>();
  await Promise.all(
    [...byTable].map(async ([key, { named, ids }]) => {
      if (ids.size === 0) return;
      const found = (await db
        .selectFrom(named.table)
        .select(['id', `${named.column} as name`] as never)
        .where('id' as never, 'in', [...ids] as never)
        .execute()) as unknown as { id: number | string; name: string }[];
      names.set(key, new Map(found.map((row) => [String(row.id), String(row.name)])));
    }),
  );
  return rows.map((row) => {
    const named = NAMED_BY[resourceOf(row.action)];
    const known = named ? names.get(`${named.table}.${named.column}`) : undefined;
    const resolvable = new Set(namedIds(row));
    return row.target_ids.map((id) => (resolvable.has(id) ? known?.get(id) : undefined) || id);
  });
}
