import { type Kysely, sql } from 'kysely';
import { inIds } from '../../db/id-list.ts';
import type { EventDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';

const count = () => sql<number | string>`count(*)`.as('count');

/** Nodes, and how many reported within `onlineSinceMs`. */
export async function nodeCounts(db: Kysely<Database>, onlineSinceMs: number) {
  const row = await db
    .selectFrom('nodes')
    .select([
      count(),
      sql<number | string | null>`sum(case when last_seen_at >= ${onlineSinceMs} then 1 else 0 end)`.as('online'),
    ])
    .executeTakeFirstOrThrow();
  const total = Number(row.count);
  const online = Number(row.online ?? 0);
  return { total, online, offline: total - online };
}

export async function countRows(
  db: Kysely<Database>,
  table: 'sites' | 'streams' | 'certs',
  userId?: number,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select(count())
    .$if(userId !== undefined, (qb) => qb.where('user_id', '=', userId ?? 0))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Ordinary users (type 2), all or created since `sinceMs`. */
export async function countUsers(db: Kysely<Database>, sinceMs?: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select(count())
    .where('type', '=', 2)
    .$if(sinceMs !== undefined, (qb) => qb.where('created_at', '>=', sinceMs ?? 0))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Ordinary users created per UTC day in [fromMs, toMs): the day's midnight in ms and the count. */
export async function newUsersPerDay(db: Kysely<Database>, fromMs: number, toMs: number) {
  const day = sql<number | string>`(created_at / 86400000) * 86400000`;
  const rows = await db
    .selectFrom('users')
    .select([day.as('day'), count()])
    .where('type', '=', 2)
    .where('created_at', '>=', fromMs)
    .where('created_at', '<', toMs)
    .groupBy(day)
    .execute();
  return rows.map((row) => ({ dayMs: Number(row.day), count: Number(row.count) }));
}

/** Packages sold (user packages made) per UTC day in [fromMs, toMs). */
export async function packagesSoldPerDay(db: Kysely<Database>, fromMs: number, toMs: number) {
  const day = sql<number | string>`(created_at / 86400000) * 86400000`;
  const rows = await db
    .selectFrom('user_packages')
    .select([day.as('day'), count()])
    .where('created_at', '>=', fromMs)
    .where('created_at', '<', toMs)
    .groupBy(day)
    .execute();
  return rows.map((row) => ({ dayMs: Number(row.day), count: Number(row.count) }));
}

/**
 * Paid orders (of one kind, or all) per UTC day of payment in [fromMs, toMs) and channel: how many
 * and their sum in cents. By the day the money moved, not the day the order was opened: an online
 * recharge opened before midnight and paid after it counts on the day it was paid.
 */
export async function paidOrdersPerDay(db: Kysely<Database>, fromMs: number, toMs: number, kind?: string) {
  const day = sql<number | string>`(paid_at / 86400000) * 86400000`;
  const rows = await db
    .selectFrom('orders')
    .select([day.as('day'), 'channel', count(), sql<number | string>`sum(amount)`.as('amount')])
    .where('state', '=', 'paid')
    .where('paid_at', '>=', fromMs)
    .where('paid_at', '<', toMs)
    .$if(kind !== undefined, (qb) => qb.where('kind', '=', kind ?? ''))
    .groupBy([day, 'channel'])
    .execute();
  return rows.map((row) => ({
    dayMs: Number(row.day),
    channel: row.channel,
    count: Number(row.count),
    amount: Number(row.amount),
  }));
}

/** The user's issued certificates that end before `beforeMs`, soonest first: how many, and the first `limit`. */
export async function expiringCerts(db: Kysely<Database>, userId: number, beforeMs: number, limit: number) {
  const base = db
    .selectFrom('certs')
    .where('user_id', '=', userId)
    .where('not_after', '>', 0)
    .where('not_after', '<', beforeMs);
  const [total, list] = await Promise.all([
    base.select(count()).executeTakeFirstOrThrow(),
    base.select(['id', 'name', 'not_after']).orderBy('not_after').orderBy('id').limit(limit).execute(),
  ]);
  return { total: Number(total.count), list: list.map((row) => ({ ...row, not_after: Number(row.not_after) })) };
}

export interface DayTotals {
  bucket: number;
  requests: number;
  bytes_in: number;
  bytes_out: number;
  cache_hits: number;
  blocked: number;
}

const total = (column: 'requests' | 'bytes_in' | 'bytes_out' | 'cache_hits' | 'blocked') =>
  sql<number | string>`sum(${sql.ref(column)})`.as(column);

/** The sites' traffic per UTC day in [from, to) (seconds); every site when `siteIds` is 'all'. */
export async function trafficPerDay(
  logs: Kysely<EventDatabase>,
  siteIds: readonly number[] | 'all',
  from: number,
  to: number,
): Promise<DayTotals[]> {
  if (siteIds !== 'all' && siteIds.length === 0) return [];
  const columns = [
    'bucket',
    total('requests'),
    total('bytes_in'),
    total('bytes_out'),
    total('cache_hits'),
    total('blocked'),
  ] as const;
  // Every site: the totals row of each day, not a row per site.
  const rows =
    siteIds === 'all'
      ? await logs
          .selectFrom('site_totals_days')
          .select(columns)
          .where('bucket', '>=', from)
          .where('bucket', '<', to)
          .groupBy('bucket')
          .execute()
      : await logs
          .selectFrom('site_traffic_days')
          .select(columns)
          .where(inIds('site_id', siteIds))
          .where('bucket', '>=', from)
          .where('bucket', '<', to)
          .groupBy('bucket')
          .execute();
  return rows.map((row) => ({
    bucket: Number(row.bucket),
    requests: Number(row.requests),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
    cache_hits: Number(row.cache_hits),
    blocked: Number(row.blocked),
  }));
}

/** The day's sites with the most traffic out (`bucket` in seconds). */
export async function topSitesOfDay(logs: Kysely<EventDatabase>, bucket: number, limit: number) {
  const rows = await logs
    .selectFrom('site_traffic_days')
    .select(['site_id', total('bytes_out'), total('requests')])
    .where('bucket', '=', bucket)
    // One row a (site, day) already in SQL; ClickHouse may hold it in several until it merges them.
    .groupBy('site_id')
    .orderBy('bytes_out', 'desc')
    .orderBy('site_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    site_id: Number(row.site_id),
    bytes_out: Number(row.bytes_out),
    requests: Number(row.requests),
  }));
}

export async function sitesByIds(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('sites').select(['id', 'user_id', 'primary_domain as domain']).where('id', 'in', ids).execute();
}

export async function siteIdsOfUser(db: Kysely<Database>, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('sites').select('id').where('user_id', '=', userId).execute();
  return rows.map((row) => row.id);
}
