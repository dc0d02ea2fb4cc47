import { type Static, Type } from 'typebox';
import { CountryCode } from './edge/geoip.ts';
import { Cidr } from './edge/protection.ts';
import { LogTime } from './edge/protection-api.ts';
import { Id } from './fields.ts';

/**
 * Site traffic (`/v1/monitor/site/*`): realtime charts from the minute, hour and day rollups, top-N
 * lists and the access log from the raw log lines. Every query is bounded by a time range.
 */
export const MONITOR_LIMITS = {
  /** A realtime chart covers at most this many days (read from the day rollup beyond 1000 hours). */
  realtimeMaxDays: 366,
  /** Top-N and the access log read the raw lines: the range is at most this long and no older. */
  rawLogDays: 31,
  /** A chart has at most this many points: the rollup is chosen from the range. */
  maxPoints: 1000,
  topMaxLimit: 100,
  accessLogMaxLimit: 200,
  /** Rows a CSV export holds at most; the last line says when it stopped there. */
  csvMaxRows: 100_000,
  /** The access log counts matching rows up to this, then says `total_capped`. */
  countCap: 10_000,
} as const;

const Time = Type.String({ description: 'ISO 8601' });
const Count = Type.Integer({ minimum: 0 });

/** Which sites: one site, one site group, or (neither) every site of the caller. */
const scopeFields = {
  site_id: Type.Optional(Id),
  /** A site group. */
  group_id: Type.Optional(Id),
  /** From (inclusive) and to (exclusive); default: the hour up to now. */
  from: Type.Optional(LogTime),
  to: Type.Optional(LogTime),
};

export const SiteRealtimeQuery = Type.Object(scopeFields, { additionalProperties: false });
export type SiteRealtimeQuery = Static<typeof SiteRealtimeQuery>;

export const TrafficCounts = Type.Object({
  requests: Count,
  bytes_in: Count,
  bytes_out: Count,
  status_2xx: Count,
  status_3xx: Count,
  status_4xx: Count,
  status_5xx: Count,
  cache_hits: Count,
  blocked: Count,
});
export type TrafficCounts = Static<typeof TrafficCounts>;

/** The counts of one interval starting at `time`. */
export const TrafficPoint = Type.Object({ time: Time, ...TrafficCounts.properties });
export type TrafficPoint = Static<typeof TrafficPoint>;

export const SiteRealtime = Type.Object({
  /** Seconds per point: 60 (minute rollup), 3600 (hour) or 86400 (day, UTC). */
  interval: Type.Integer({ minimum: 60 }),
  from: Time,
  to: Time,
  /** Every interval of the range, oldest first; intervals without traffic are zeros. */
  points: Type.Array(TrafficPoint),
  totals: TrafficCounts,
});
export type SiteRealtime = Static<typeof SiteRealtime>;

export const TOP_DIMENSIONS = ['url', 'ip', 'referer', 'user_agent', 'status', 'host', 'country'] as const;
export const TopDimension = Type.Union(
  TOP_DIMENSIONS.map((value) => Type.Literal(value)),
  { description: 'one of url, ip, referer, user_agent, status, host, country (ISO 3166-1 alpha-2; empty: unknown)' },
);
export type TopDimension = (typeof TOP_DIMENSIONS)[number];

export const SiteTopQuery = Type.Object(
  {
    ...scopeFields,
    by: TopDimension,
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
export type SiteTopQuery = Static<typeof SiteTopQuery>;

export const TopEntry = Type.Object({ key: Type.String(), requests: Count, bytes_out: Count });
export type TopEntry = Static<typeof TopEntry>;

export const SiteTop = Type.Object({ by: TopDimension, list: Type.Array(TopEntry) });
export type SiteTop = Static<typeof SiteTop>;

export const UrlMatch = Type.Union([Type.Literal('prefix'), Type.Literal('contains')], {
  default: 'prefix',
  description: 'prefix or contains',
});
export type UrlMatch = Static<typeof UrlMatch>;

/** `time_ms:id` of the last row of a page: the next page starts after it (keyset, newest first). */
export const AccessLogCursor = Type.String({
  pattern: '^[0-9]{1,15}:[0-9]{1,16}$',
  description: 'the next_cursor of the previous page',
});

export const AccessLogQuery = Type.Object(
  {
    ...scopeFields,
    ip: Type.Optional(Cidr),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'at most 512 characters' })),
    url_match: Type.Optional(UrlMatch),
    status: Type.Optional(
      Type.String({ pattern: '^[1-5](?:[0-9]{2}|xx)$', description: 'a status such as 404, or a class such as 4xx' }),
    ),
    method: Type.Optional(Type.String({ pattern: '^[A-Z]{1,16}$', description: '1 to 16 capital letters' })),
    cache_status: Type.Optional(
      Type.String({ pattern: '^[A-Z_]{1,16}$', description: 'a cache status such as HIT or MISS' }),
    ),
    node_id: Type.Optional(Id),
    country: Type.Optional(CountryCode),
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
export type AccessLogQuery = Static<typeof AccessLogQuery>;

export const AccessLogEntry = Type.Object({
  id: Type.Integer(),
  time: Time,
  site_id: Type.Integer(),
  node_id: Type.Integer(),
  client_ip: Type.String(),
  method: Type.String(),
  host: Type.String(),
  uri: Type.String(),
  status: Type.Integer(),
  bytes_sent: Type.Integer(),
  bytes_received: Type.Integer(),
  request_time_ms: Type.Integer(),
  upstream_time_ms: Type.Union([Type.Integer(), Type.Null()]),
  cache_status: Type.String(),
  user_agent: Type.String(),
  referer: Type.String(),
  block_reason: Type.String(),
  /** The client's country (ISO 3166-1 alpha-2) as the edge looked it up; '' unknown. */
  country: Type.String({ description: "ISO 3166-1 alpha-2; '' when unknown" }),
});
export type AccessLogEntry = Static<typeof AccessLogEntry>;

/** The CSV export's columns, in order: the fields of AccessLogEntry. */
export const ACCESS_LOG_COLUMNS = Object.keys(AccessLogEntry.properties) as (keyof AccessLogEntry)[];

export const AccessLogPage = Type.Object({
  list: Type.Array(AccessLogEntry),
  /** Rows matching the filter, counted up to MONITOR_LIMITS.countCap. */
  total: Count,
  total_capped: Type.Boolean(),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: Type.Union([AccessLogCursor, Type.Null()]),
});
export type AccessLogPage = Static<typeof AccessLogPage>;
