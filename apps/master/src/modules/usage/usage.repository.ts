import { type Kysely, sql } from 'kysely';
import { inIds } from '../../db/id-list.ts';
import type { EventDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';

export interface OwnedSite {
  id: number;
  user_id: number;
  domain: string;
}

/** The user's sites, or the one named if it is theirs. */
export async function sitesOfUser(db: Kysely<Database>, userId: number, siteId?: number): Promise<OwnedSite[]> {
  return db
    .selectFrom('sites')
    .select(['id', 'user_id', 'primary_domain as domain'])
    .where('user_id', '=', userId)
    .$if(siteId !== undefined, (qb) => qb.where('id', '=', siteId ?? 0))
    .orderBy('id')
    .execute();
}

export interface SiteSample {
  site_id: number;
  bucket: number;
  bytes_out: number;
}

/** The sites' 5-minute samples with traffic in [from, to) (seconds), through the (site_id, bucket) key. */
export async function readSamples(
  logs: Kysely<EventDatabase>,
  siteIds: readonly number[],
  from: number,
  to: number,
): Promise<SiteSample[]> {
  if (siteIds.length === 0) return [];
  const rows = await logs
    .selectFrom('site_traffic_5min')
    .select(['site_id', 'bucket', sql<number | string>`sum(bytes_out)`.as('bytes_out')])
    .where(inIds('site_id', siteIds))
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    // One row a (site, bucket) already in SQL; ClickHouse may hold it in several until it merges them.
    .groupBy(['site_id', 'bucket'])
    .execute();
  // PostgreSQL answers bigints as text.
  return rows.map((row) => ({
    site_id: Number(row.site_id),
    bucket: Number(row.bucket),
    bytes_out: Number(row.bytes_out),
  }));
}

/** The sites' bytes out summed per 5-minute sample in [from, to): one user's bandwidth samples. */
export async function readSampleSums(
  logs: Kysely<EventDatabase>,
  siteIds: readonly number[],
  from: number,
  to: number,
): Promise<number[]> {
  if (siteIds.length === 0) return [];
  const rows = await logs
    .selectFrom('site_traffic_5min')
    .select(sql<number | string>`sum(bytes_out)`.as('bytes_out'))
    .where(inIds('site_id', siteIds))
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .groupBy('bucket')
    .execute();
  return rows.map((row) => Number(row.bytes_out));
}

export interface SiteDay {
  site_id: number;
  bucket: number;
  requests: number;
  bytes_in: number;
  bytes_out: number;
  cache_hits: number;
  blocked: number;
}

/** The sites' day rollup rows in [from, to) (seconds); every site when `siteIds` is 'all'. */
export async function readDays(
  logs: Kysely<EventDatabase>,
  siteIds: readonly number[] | 'all',
  from: number,
  to: number,
): Promise<SiteDay[]> {
  if (siteIds !== 'all' && siteIds.length === 0) return [];
  const rows = await logs
    .selectFrom('site_traffic_days')
    .select([
      'site_id',
      'bucket',
      sql<number | string>`sum(requests)`.as('requests'),
      sql<number | string>`sum(bytes_in)`.as('bytes_in'),
      sql<number | string>`sum(bytes_out)`.as('bytes_out'),
      sql<number | string>`sum(cache_hits)`.as('cache_hits'),
      sql<number | string>`sum(blocked)`.as('blocked'),
    ])
    .$if(siteIds !== 'all', (qb) => qb.where(inIds('site_id', siteIds === 'all' ? [] : siteIds)))
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    // One row a (site, day) already in SQL; ClickHouse may hold it in several until it merges them.
    .groupBy(['site_id', 'bucket'])
    .execute();
  return rows.map((row) => ({
    site_id: Number(row.site_id),
    bucket: Number(row.bucket),
    requests: Number(row.requests),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
    cache_hits: Number(row.cache_hits),
    blocked: Number(row.blocked),
  }));
}

export interface SiteTotals {
  site_id: number;
  requests: number;
  bytes_in: number;
  bytes_out: number;
}

/** Every site's traffic in [from, to) (seconds) from the day rollup, one row a site with traffic. */
export async function totalsPerSite(logs: Kysely<EventDatabase>, from: number, to: number): Promise<SiteTotals[]> {
  const rows = await logs
    .selectFrom('site_traffic_days')
    .select([
      'site_id',
      sql<number | string>`sum(requests)`.as('requests'),
      sql<number | string>`sum(bytes_in)`.as('bytes_in'),
      sql<number | string>`sum(bytes_out)`.as('bytes_out'),
    ])
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .groupBy('site_id')
    .execute();
  return rows.map((row) => ({
    site_id: Number(row.site_id),
    requests: Number(row.requests),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
  }));
}

export interface UserRow {
  id: number;
  account: string;
  name: string;
}

/** Ordinary users (type 2), the ones packages are sold to. */
export async function ordinaryUsers(db: Kysely<Database>): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .select(['id', 'username as account', 'name'])
    .where('type', '=', 2)
    .orderBy('id')
    .execute();
}

/** Site ids of every site, with their owners. */
export async function siteOwners(db: Kysely<Database>): Promise<{ id: number; user_id: number }[]> {
  return db.selectFrom('sites').select(['id', 'user_id']).execute();
}

export const userExists = async (db: Kysely<Database>, userId: number): Promise<boolean> =>
  (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;

export interface StreamTotals {
  stream_id: number;
  bytes_in: number;
  bytes_out: number;
}

/** The streams' traffic summed over their day rollup rows in [from, to) (seconds), per stream. */
export async function streamTotals(
  logs: Kysely<EventDatabase>,
  streamIds: readonly number[],
  from: number,
  to: number,
): Promise<StreamTotals[]> {
  if (streamIds.length === 0) return [];
  const rows = await logs
    .selectFrom('stream_traffic_days')
    .select([
      'stream_id',
      sql<number | string>`sum(bytes_in)`.as('bytes_in'),
      sql<number | string>`sum(bytes_out)`.as('bytes_out'),
    ])
    .where(inIds('stream_id', streamIds))
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .groupBy('stream_id')
    .execute();
  // PostgreSQL sums bigints as numeric, which arrives as text.
  return rows.map((row) => ({
    stream_id: Number(row.stream_id),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
  }));
}

/** The streams that count against a user package. */
export async function streamsOfUserPackage(db: Kysely<Database>, userPackageId: number) {
  return db
    .selectFrom('streams')
    .select(['id', 'name'])
    .where('user_package_id', '=', userPackageId)
    .orderBy('id')
    .execute();
}
