import {
  type AccessLogPage,
  type AccessLogQuery,
  MONITOR_LIMITS,
  type SiteRealtime,
  type SiteRealtimeQuery,
  type SiteTop,
  type SiteTopQuery,
  type TrafficCounts,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { EventStore } from '../../db/events.ts';
import { cidrKeyRange } from '../../db/ip-key.ts';
import type { LogDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';
import { invalidParam } from '../../errors.ts';
import { loadSettings } from '../settings/settings.service.ts';
import type { Owner } from '../tenancy.ts';
import {
  type AccessLogFilter,
  type Cursor,
  countAccessLog,
  readAccessLog,
  topAccessLog,
} from './access-log.repository.ts';
import { bucketSeries } from './bucket-series.ts';
import { type SiteScope, siteScope } from './site-scope.repository.ts';
import { DAY_MS, timeRange } from './time-range.ts';
import { readTraffic } from './traffic.repository.ts';
import { retainedRollup } from './traffic-retention.ts';
import { TRAFFIC_ROLLUPS } from './traffic-rollup.repository.ts';

export interface MonitorStores {
  db: Kysely<Database>;
  logs: Kysely<LogDatabase>;
  events: EventStore;
}

const ZERO: TrafficCounts = {
  requests: 0,
  bytes_in: 0,
  bytes_out: 0,
  status_2xx: 0,
  status_3xx: 0,
  status_4xx: 0,
  status_5xx: 0,
  cache_hits: 0,
  blocked: 0,
};

/** The rollup a chart of the range reads: the finest that fits and still holds the range's start. */
export const rollupFor = async (db: Kysely<Database>, range: { fromMs: number; toMs: number; now: number }) =>
  retainedRollup(TRAFFIC_ROLLUPS, range, await loadSettings(db), MONITOR_LIMITS.maxPoints);

const scopeOf = (stores: MonitorStores, owner: Owner, query: { site_id?: number; group_id?: number }) =>
  siteScope(stores.db, owner, { siteId: query.site_id, groupId: query.group_id });

export async function siteRealtime(
  stores: MonitorStores,
  owner: Owner,
  query: SiteRealtimeQuery,
  now: number,
): Promise<SiteRealtime> {
  const { fromMs, toMs } = timeRange(query.from, query.to, { maxSpanMs: MONITOR_LIMITS.realtimeMaxDays * DAY_MS, now });
  const scope = await scopeOf(stores, owner, query);
  const { table, seconds } = await rollupFor(stores.db, { fromMs, toMs, now });
  const first = Math.floor(fromMs / 1000 / seconds) * seconds;
  const end = Math.ceil(toMs / 1000 / seconds) * seconds;
  const rows = await readTraffic(stores.events.db, scope, table, first, end);
  const { points, totals } = bucketSeries(rows, ZERO, { first, end, seconds });
  return { interval: seconds, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), points, totals };
}

const rawRange = (query: { from?: string; to?: string }, now: number) =>
  timeRange(query.from, query.to, {
    maxSpanMs: MONITOR_LIMITS.rawLogDays * DAY_MS,
    maxAgeMs: MONITOR_LIMITS.rawLogDays * DAY_MS,
    now,
  });

export async function siteTop(stores: MonitorStores, owner: Owner, query: SiteTopQuery, now: number): Promise<SiteTop> {
  const range = rawRange(query, now);
  const scope = await scopeOf(stores, owner, query);
  return { by: query.by, list: await topAccessLog(stores.events.db, scope, range, query.by, query.limit ?? 10) };
}

/** The query's filter, checked: a malformed CIDR names the field. */
export function accessLogFilter(query: AccessLogQuery, now: number): AccessLogFilter {
  const range = rawRange(query, now);
  let ipKeys: AccessLogFilter['ipKeys'];
  if (query.ip !== undefined) {
    ipKeys = cidrKeyRange(query.ip) ?? undefined;
    if (!ipKeys) throw invalidParam('ip', `${query.ip} is not an IP address or CIDR range`);
  }
  let status: AccessLogFilter['status'];
  if (query.status !== undefined) {
    const code = Number(query.status.replace('xx', '00'));
    status = query.status.endsWith('xx') ? { first: code, last: code + 99 } : { first: code, last: code };
  }
  return {
    ...range,
    ipKeys,
    url: query.url === undefined ? undefined : { text: query.url, match: query.url_match ?? 'prefix' },
    status,
    method: query.method,
    cacheStatus: query.cache_status,
    country: query.country,
    nodeId: query.node_id,
  };
}

export function parseCursor(text: string | undefined): Cursor | undefined {
  if (text === undefined) return undefined;
  const [timeMs, id] = text.split(':').map(Number);
  if (!Number.isSafeInteger(timeMs) || !Number.isSafeInteger(id)) throw invalidParam('cursor', 'is not a cursor');
  return { timeMs: timeMs ?? 0, id: id ?? 0 };
}

export const formatCursor = (cursor: Cursor) => `${cursor.timeMs}:${cursor.id}`;

export interface AccessLogRequest {
  scope: SiteScope;
  filter: AccessLogFilter;
}

/** The scope and filter of an access log call, both checked (export and page share them). */
export async function accessLogRequest(
  stores: MonitorStores,
  owner: Owner,
  query: AccessLogQuery,
  now: number,
): Promise<AccessLogRequest> {
  const filter = accessLogFilter(query, now);
  return { filter, scope: await scopeOf(stores, owner, query) };
}

export async function accessLogPage(
  stores: MonitorStores,
  { scope, filter }: AccessLogRequest,
  cursor: Cursor | undefined,
  limit: number,
): Promise<AccessLogPage> {
  const [page, count] = await Promise.all([
    // One more than asked: whether an older page exists.
    readAccessLog(stores.events.db, scope, filter, cursor, limit + 1),
    countAccessLog(stores.events.db, scope, filter, MONITOR_LIMITS.countCap),
  ]);
  const list = page.list.slice(0, limit);
  const last = list[list.length - 1];
  const more = page.list.length > limit && last !== undefined;
  return {
    list,
    total: count.total,
    total_capped: count.capped,
    next_cursor: more ? formatCursor({ timeMs: Date.parse(last.time), id: last.id }) : null,
  };
}

const EXPORT_CHUNK = 1000;

/** Every matching line, newest first, at most MONITOR_LIMITS.csvMaxRows, read a chunk at a time by keyset. */
export async function* exportAccessLog(stores: MonitorStores, { scope, filter }: AccessLogRequest) {
  let cursor: Cursor | undefined;
  let left: number = MONITOR_LIMITS.csvMaxRows;
  while (left > 0) {
    const chunk = await readAccessLog(stores.events.db, scope, filter, cursor, Math.min(EXPORT_CHUNK, left));
    yield* chunk.list;
    left -= chunk.list.length;
    if (!chunk.last || chunk.list.length < Math.min(EXPORT_CHUNK, left + chunk.list.length)) return;
    cursor = chunk.last;
  }
}
