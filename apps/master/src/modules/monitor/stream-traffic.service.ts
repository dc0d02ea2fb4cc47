import {
  MONITOR_LIMITS,
  type StreamLogEntry,
  type StreamLogPage,
  type StreamLogQuery,
  type StreamRealtime,
  type StreamRealtimeQuery,
  type StreamTop,
  type StreamTopQuery,
  type StreamTrafficCounts,
} from '@rampart/contracts';
import { cidrKeyRange } from '../../db/ip-key.ts';
import { invalidParam } from '../../errors.ts';
import { loadSettings } from '../settings/settings.service.ts';
import type { Owner } from '../tenancy.ts';
import type { Cursor } from './access-log.repository.ts';
import { bucketSeries } from './bucket-series.ts';
import { formatCursor, type MonitorStores } from './monitor.service.ts';
import { countStreamLog, readStreamLog, type StreamLogFilter, topStreamLog } from './stream-log.repository.ts';
import { STREAM_ROLLUPS } from './stream-rollup.repository.ts';
import { type StreamScope, streamPorts, streamScope } from './stream-scope.repository.ts';
import { readStreamTraffic } from './stream-traffic.repository.ts';
import { DAY_MS, timeRange } from './time-range.ts';
import { retainedRollup } from './traffic-retention.ts';

const ZERO: StreamTrafficCounts = { connections: 0, failed: 0, bytes_in: 0, bytes_out: 0, session_ms: 0 };

/** The finest rollup whose intervals over the range number at most MONITOR_LIMITS.maxPoints. */
export const streamRollupFor = async (db: MonitorStores['db'], range: { fromMs: number; toMs: number; now: number }) =>
  retainedRollup(STREAM_ROLLUPS, range, await loadSettings(db), MONITOR_LIMITS.maxPoints);

const scopeOf = (stores: MonitorStores, owner: Owner, query: { stream_id?: number; group_id?: number }) =>
  streamScope(stores.db, owner, { streamId: query.stream_id, groupId: query.group_id });

export async function streamRealtime(
  stores: MonitorStores,
  owner: Owner,
  query: StreamRealtimeQuery,
  now: number,
): Promise<StreamRealtime> {
  const { fromMs, toMs } = timeRange(query.from, query.to, { maxSpanMs: MONITOR_LIMITS.realtimeMaxDays * DAY_MS, now });
  const scope = await scopeOf(stores, owner, query);
  const { table, seconds } = await streamRollupFor(stores.db, { fromMs, toMs, now });
  const first = Math.floor(fromMs / 1000 / seconds) * seconds;
  const end = Math.ceil(toMs / 1000 / seconds) * seconds;
  const rows = await readStreamTraffic(stores.events.db, scope, table, first, end);
  const { points, totals } = bucketSeries(rows, ZERO, { first, end, seconds });
  return { interval: seconds, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), points, totals };
}

/** The query's filter, checked: a malformed CIDR names the field. The raw log's range rules apply. */
export function streamLogFilter(
  query: Pick<StreamLogQuery, 'from' | 'to' | 'ip' | 'protocol' | 'status' | 'node_id'>,
  now: number,
): StreamLogFilter {
  const range = timeRange(query.from, query.to, {
    maxSpanMs: MONITOR_LIMITS.rawLogDays * DAY_MS,
    maxAgeMs: MONITOR_LIMITS.rawLogDays * DAY_MS,
    now,
  });
  let ipKeys: StreamLogFilter['ipKeys'];
  if (query.ip !== undefined) {
    ipKeys = cidrKeyRange(query.ip) ?? undefined;
    if (!ipKeys) throw invalidParam('ip', `${query.ip} is not an IP address or CIDR range`);
  }
  let status: StreamLogFilter['status'];
  if (query.status !== undefined) {
    const code = Number(query.status.replace('xx', '00'));
    status = query.status.endsWith('xx') ? { first: code, last: code + 99 } : { first: code, last: code };
  }
  return { ...range, ipKeys, protocol: query.protocol, status, nodeId: query.node_id };
}

export async function streamTop(
  stores: MonitorStores,
  owner: Owner,
  query: StreamTopQuery,
  now: number,
): Promise<StreamTop> {
  const filter = streamLogFilter(query, now);
  const scope = await scopeOf(stores, owner, query);
  const rows = await topStreamLog(stores.events.db, scope, filter, query.by, query.limit ?? 10);
  if (query.by === 'ip') return { by: 'ip', list: rows };
  const ports = await streamPorts(
    stores.db,
    rows.map((row) => Number(row.key)),
  );
  // A stream deleted since its traffic keeps its id as the label.
  return { by: 'port', list: rows.map((row) => ({ ...row, key: ports.get(Number(row.key)) ?? `#${row.key}` })) };
}

export interface StreamLogRequest {
  scope: StreamScope;
  filter: StreamLogFilter;
}

export async function streamLogRequest(
  stores: MonitorStores,
  owner: Owner,
  query: StreamLogQuery,
  now: number,
): Promise<StreamLogRequest> {
  const filter = streamLogFilter(query, now);
  return { filter, scope: await scopeOf(stores, owner, query) };
}

export async function streamLogPage(
  stores: MonitorStores,
  { scope, filter }: StreamLogRequest,
  cursor: Cursor | undefined,
  limit: number,
): Promise<StreamLogPage> {
  const [page, count] = await Promise.all([
    // One more than asked: whether an older page exists.
    readStreamLog(stores.events.db, scope, filter, cursor, limit + 1),
    countStreamLog(stores.events.db, scope, filter, MONITOR_LIMITS.countCap),
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
export async function* exportStreamLog(
  stores: MonitorStores,
  { scope, filter }: StreamLogRequest,
): AsyncGenerator<StreamLogEntry> {
  let cursor: Cursor | undefined;
  let left: number = MONITOR_LIMITS.csvMaxRows;
  while (left > 0) {
    const size = Math.min(EXPORT_CHUNK, left);
    const chunk = await readStreamLog(stores.events.db, scope, filter, cursor, size);
    yield* chunk.list;
    left -= chunk.list.length;
    if (!chunk.last || chunk.list.length < size) return;
    cursor = chunk.last;
  }
}
