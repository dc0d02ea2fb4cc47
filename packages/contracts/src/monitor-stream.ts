import { type Static, Type } from 'typebox';
import { Cidr } from './edge/protection.ts';
import { LogTime } from './edge/protection-api.ts';
import { Id } from './fields.ts';
import { AccessLogCursor, MONITOR_LIMITS } from './monitor.ts';

/**
 * Stream traffic (`/v1/monitor/stream/*`): realtime charts from the minute, hour and day rollups of
 * the stream log (one line per TCP connection or UDP session), top client IPs and ports, and the
 * stream log itself. The same limits as the site calls (MONITOR_LIMITS).
 */

const Time = Type.String({ description: 'ISO 8601' });
const Count = Type.Integer({ minimum: 0 });

/** Which streams: one stream, one stream group, or (neither) every stream of the caller. */
const scopeFields = {
  stream_id: Type.Optional(Id),
  /** A stream group. */
  group_id: Type.Optional(Id),
  /** From (inclusive) and to (exclusive); default: the hour up to now. */
  from: Type.Optional(LogTime),
  to: Type.Optional(LogTime),
};

export const StreamRealtimeQuery = Type.Object(scopeFields, { additionalProperties: false });
export type StreamRealtimeQuery = Static<typeof StreamRealtimeQuery>;

export const StreamTrafficCounts = Type.Object({
  /** Connections (TCP) or sessions (UDP) that ended in the interval. */
  connections: Count,
  /** Of those, the ones nginx ended with a status of 400 or more (refused, no upstream). */
  failed: Count,
  /** From clients. */
  bytes_in: Count,
  /** To clients. */
  bytes_out: Count,
  /** Their summed duration in milliseconds (the mean is session_ms / connections). */
  session_ms: Count,
});
export type StreamTrafficCounts = Static<typeof StreamTrafficCounts>;

export const StreamTrafficPoint = Type.Object({ time: Time, ...StreamTrafficCounts.properties });
export type StreamTrafficPoint = Static<typeof StreamTrafficPoint>;

export const StreamRealtime = Type.Object({
  /** Seconds per point: 60, 3600 or 86400 (UTC days). */
  interval: Type.Integer({ minimum: 60 }),
  from: Time,
  to: Time,
  /** Every interval of the range, oldest first; intervals without traffic are zeros. */
  points: Type.Array(StreamTrafficPoint),
  totals: StreamTrafficCounts,
});
export type StreamRealtime = Static<typeof StreamRealtime>;

export const STREAM_TOP_DIMENSIONS = ['ip', 'port'] as const;
export const StreamTopDimension = Type.Union([Type.Literal('ip'), Type.Literal('port')], {
  description: 'ip or port',
});
export type StreamTopDimension = Static<typeof StreamTopDimension>;

export const StreamTopQuery = Type.Object(
  {
    ...scopeFields,
    by: StreamTopDimension,
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MONITOR_LIMITS.topMaxLimit,
        default: 10,
        description: `a whole number from 1 to ${MONITOR_LIMITS.topMaxLimit}`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type StreamTopQuery = Static<typeof StreamTopQuery>;

/** by=ip: a client address; by=port: a listen port as `port/protocol` (e.g. 3306/tcp). */
export const StreamTopEntry = Type.Object({
  key: Type.String(),
  connections: Count,
  bytes_in: Count,
  bytes_out: Count,
});
export type StreamTopEntry = Static<typeof StreamTopEntry>;

export const StreamTop = Type.Object({ by: StreamTopDimension, list: Type.Array(StreamTopEntry) });
export type StreamTop = Static<typeof StreamTop>;

export const StreamLogQuery = Type.Object(
  {
    ...scopeFields,
    ip: Type.Optional(Cidr),
    protocol: Type.Optional(Type.Union([Type.Literal('tcp'), Type.Literal('udp')], { description: 'tcp or udp' })),
    status: Type.Optional(
      Type.String({ pattern: '^[1-5](?:[0-9]{2}|xx)$', description: 'a status such as 502, or a class such as 5xx' }),
    ),
    node_id: Type.Optional(Id),
    cursor: Type.Optional(AccessLogCursor),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MONITOR_LIMITS.accessLogMaxLimit,
        default: 50,
        description: `a whole number from 1 to ${MONITOR_LIMITS.accessLogMaxLimit}`,
      }),
    ),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], {
        default: 'json',
        description: 'json (a page) or csv (every matching row, streamed, at most 100000)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type StreamLogQuery = Static<typeof StreamLogQuery>;

/** One connection or session as nginx's stream module logged it. */
export const StreamLogEntry = Type.Object({
  id: Type.Integer(),
  time: Time,
  stream_id: Type.Integer(),
  node_id: Type.Integer(),
  client_ip: Type.String(),
  protocol: Type.String(),
  status: Type.Integer(),
  bytes_sent: Type.Integer(),
  bytes_received: Type.Integer(),
  session_time_ms: Type.Integer(),
  upstream: Type.String(),
});
export type StreamLogEntry = Static<typeof StreamLogEntry>;

/** The CSV export's columns, in order: the fields of StreamLogEntry. */
export const STREAM_LOG_COLUMNS = Object.keys(StreamLogEntry.properties) as (keyof StreamLogEntry)[];

export const StreamLogPage = Type.Object({
  list: Type.Array(StreamLogEntry),
  /** Rows matching the filter, counted up to MONITOR_LIMITS.countCap. */
  total: Count,
  total_capped: Type.Boolean(),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: Type.Union([AccessLogCursor, Type.Null()]),
});
export type StreamLogPage = Static<typeof StreamLogPage>;
