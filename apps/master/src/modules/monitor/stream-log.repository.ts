import type { StreamLogEntry, StreamTopDimension } from '@rampart/contracts';
import { type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import { inIds } from '../../db/id-list.ts';
import type { EventDatabase, StreamLogsTable } from '../../db/logs-schema.ts';
import type { Cursor } from './access-log.repository.ts';
import type { StreamScope } from './stream-scope.repository.ts';

/** A filter the service has checked: a bounded time range always, the rest optional. */
export interface StreamLogFilter {
  fromMs: number;
  toMs: number;
  /** First and last key of an address or CIDR range (ip-key.ts). */
  ipKeys?: { first: string; last: string } | undefined;
  protocol?: string | undefined;
  /** A status, or a class as [first, last]. */
  status?: { first: number; last: number } | undefined;
  nodeId?: number | undefined;
}

type StreamLogQuery = SelectQueryBuilder<EventDatabase, 'stream_logs', object>;

/**
 * The lines of the scope matching the filter. Every query is bounded by the time range and starts
 * from an index: (stream_id, time_ms) for a user's streams, (time_ms) for an admin's every stream.
 */
export function matchingStreamLog(
  logs: Kysely<EventDatabase>,
  scope: StreamScope,
  filter: StreamLogFilter,
): StreamLogQuery {
  const { ipKeys, protocol, status, nodeId } = filter;
  return (
    logs
      .selectFrom('stream_logs')
      .where('time_ms', '>=', filter.fromMs)
      .where('time_ms', '<', filter.toMs)
      .$if(scope.kind === 'streams', (qb) => qb.where(inIds('stream_id', scope.kind === 'streams' ? scope.ids : [])))
      .$if(ipKeys !== undefined, (qb) =>
        qb.where('client_ip_key', '>=', ipKeys?.first ?? '').where('client_ip_key', '<=', ipKeys?.last ?? ''),
      )
      // nginx logs TCP and UDP in capitals; the query names them in lowercase.
      .$if(protocol !== undefined, (qb) => qb.where('protocol', 'in', [protocol ?? '', (protocol ?? '').toUpperCase()]))
      .$if(status !== undefined, (qb) =>
        qb.where('status', '>=', status?.first ?? 0).where('status', '<=', status?.last ?? 0),
      )
      .$if(nodeId !== undefined, (qb) => qb.where('node_id', '=', nodeId ?? 0))
  );
}

const after = (cursor: Cursor) => (eb: ExpressionBuilder<EventDatabase, 'stream_logs'>) =>
  eb.or([eb('time_ms', '<', cursor.timeMs), eb.and([eb('time_ms', '=', cursor.timeMs), eb('id', '<', cursor.id)])]);

const COLUMNS = [
  'id',
  'time_ms',
  'stream_id',
  'node_id',
  'client_ip',
  'protocol',
  'status',
  'bytes_sent',
  'bytes_received',
  'session_time_ms',
  'upstream',
] as const;

type StreamLogRow = Pick<Selectable<StreamLogsTable>, (typeof COLUMNS)[number]>;

const present = ({ time_ms, ...row }: StreamLogRow): StreamLogEntry => ({
  ...row,
  id: Number(row.id),
  stream_id: Number(row.stream_id),
  node_id: Number(row.node_id),
  bytes_sent: Number(row.bytes_sent),
  bytes_received: Number(row.bytes_received),
  time: new Date(Number(time_ms)).toISOString(),
});

const isEmpty = (scope: StreamScope) => scope.kind === 'streams' && scope.ids.length === 0;

/** Up to `limit` lines after the cursor, newest first, and the cursor of the last one. */
export async function readStreamLog(
  logs: Kysely<EventDatabase>,
  scope: StreamScope,
  filter: StreamLogFilter,
  cursor: Cursor | undefined,
  limit: number,
): Promise<{ list: StreamLogEntry[]; last: Cursor | undefined }> {
  if (isEmpty(scope)) return { list: [], last: undefined };
  const rows = await matchingStreamLog(logs, scope, filter)
    .$if(cursor !== undefined, (qb) => qb.where(after(cursor ?? { timeMs: 0, id: 0 })))
    .select(COLUMNS)
    .orderBy('time_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const tail = rows[rows.length - 1];
  return {
    list: rows.map(present),
    last: tail && { timeMs: Number(tail.time_ms), id: Number(tail.id) },
  };
}

/** How many lines match, counted up to `cap` (then the count stops: a bound on the work). */
export async function countStreamLog(
  logs: Kysely<EventDatabase>,
  scope: StreamScope,
  filter: StreamLogFilter,
  cap: number,
): Promise<{ total: number; capped: boolean }> {
  if (isEmpty(scope)) return { total: 0, capped: false };
  const limited = matchingStreamLog(logs, scope, filter)
    .select(sql<number>`1`.as('one'))
    .limit(cap + 1);
  const row = await logs
    .selectFrom(limited.as('limited'))
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return { total: Math.min(n, cap), capped: n > cap };
}

export interface StreamTopRow {
  /** A client address, or a stream id (by port: the service names its port). */
  key: string;
  connections: number;
  bytes_in: number;
  bytes_out: number;
}

/** Client addresses or streams with the most connections in the range. */
export async function topStreamLog(
  logs: Kysely<EventDatabase>,
  scope: StreamScope,
  filter: StreamLogFilter,
  by: StreamTopDimension,
  limit: number,
): Promise<StreamTopRow[]> {
  if (isEmpty(scope)) return [];
  const column = by === 'ip' ? 'client_ip' : 'stream_id';
  const rows = await matchingStreamLog(logs, scope, filter)
    .select([
      sql.ref<string | number>(column).as('key'),
      sql<number | string>`count(*)`.as('connections'),
      sql<number | string>`sum(bytes_received)`.as('bytes_in'),
      sql<number | string>`sum(bytes_sent)`.as('bytes_out'),
    ])
    .groupBy(column)
    .orderBy('connections', 'desc')
    .orderBy(column)
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    key: String(row.key),
    connections: Number(row.connections),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
  }));
}
