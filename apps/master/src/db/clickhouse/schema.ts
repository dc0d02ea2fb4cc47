import { TRAFFIC_ROLLUPS } from '../migrations/logs/2026-11-25T1000-site-traffic.ts';
import { STREAM_ROLLUPS } from '../migrations/logs/2026-11-25T1110-stream-traffic.ts';
import { USAGE_SAMPLE_SECONDS } from '../migrations/logs/2026-11-25T1120-usage-5min.ts';
import { SITE_TOTALS } from '../migrations/logs/2026-11-26T0510-site-totals.ts';

/**
 * The ClickHouse side of the logs store: the access and stream logs (MergeTree, one partition a
 * UTC day, sorted by site or stream then time) and their rollups (SummingMergeTree, filled by
 * materialized views as lines arrive, so a chart reads sums that already exist). A rollup table may
 * hold a (site, bucket) in several rows until ClickHouse merges them: every read sums them.
 *
 * Statements are idempotent; a later change adds statements, never edits these.
 */

const DAY_MS = 86_400_000;
const DAY_S = 86_400;
/** Rollups read a month at a time by one site: 30-day partitions keep that to one or two parts. */
const MONTH_S = 30 * DAY_S;

/**
 * How each table is partitioned: by its time column over `span` (in the column's unit, `ms` or `s`).
 * Retention drops whole partitions that end before its cutoff.
 */
export const PARTITIONS = {
  access_logs: { column: 'time_ms', unit: 'ms', span: DAY_MS },
  stream_logs: { column: 'time_ms', unit: 'ms', span: DAY_MS },
  site_traffic_minutes: { column: 'bucket', unit: 's', span: DAY_S },
  site_traffic_hours: { column: 'bucket', unit: 's', span: MONTH_S },
  site_traffic_5min: { column: 'bucket', unit: 's', span: MONTH_S },
  site_totals_minutes: { column: 'bucket', unit: 's', span: DAY_S },
  site_totals_hours: { column: 'bucket', unit: 's', span: MONTH_S },
  stream_traffic_minutes: { column: 'bucket', unit: 's', span: DAY_S },
  stream_traffic_hours: { column: 'bucket', unit: 's', span: MONTH_S },
} as const;

export type PartitionedTable = keyof typeof PARTITIONS;

const partitionBy = (table: string) => {
  const partition = PARTITIONS[table as PartitionedTable];
  return partition ? `PARTITION BY intDiv(${partition.column}, ${partition.span})` : '';
};

const ACCESS_LOGS = `CREATE TABLE IF NOT EXISTS access_logs (
  id UInt64, node_id UInt32, site_id UInt32, time_ms Int64,
  client_ip String, method String, host String, uri String, status UInt16,
  bytes_sent UInt64, bytes_received UInt64, request_time_ms Int64, upstream_time_ms Nullable(Int64),
  cache_status String, user_agent String, referer String, block_reason String,
  client_ip_key Nullable(String)
) ENGINE = MergeTree ${partitionBy('access_logs')} ORDER BY (site_id, time_ms, id)`;

const STREAM_LOGS = `CREATE TABLE IF NOT EXISTS stream_logs (
  id UInt64, node_id UInt32, stream_id UInt32, time_ms Int64,
  client_ip String, protocol String, status UInt16, bytes_sent UInt64, bytes_received UInt64,
  session_time_ms Int64, upstream String, client_ip_key Nullable(String)
) ENGINE = MergeTree ${partitionBy('stream_logs')} ORDER BY (stream_id, time_ms, id)`;

// A site's or stream's rows of a range sit together: finer marks read fewer other sites' rows.
const FINE = 'SETTINGS index_granularity = 1024';

const SITE_COUNTS = [
  ['requests', 'count()'],
  ['bytes_in', 'sum(bytes_received)'],
  ['bytes_out', 'sum(bytes_sent)'],
  ['status_2xx', 'sum(status >= 200 AND status < 300)'],
  ['status_3xx', 'sum(status >= 300 AND status < 400)'],
  ['status_4xx', 'sum(status >= 400 AND status < 500)'],
  ['status_5xx', 'sum(status >= 500 AND status < 600)'],
  ['cache_hits', "sum(cache_status = 'HIT')"],
  ['blocked', "sum(block_reason != '')"],
] as const;

const USAGE_COUNTS = SITE_COUNTS.filter(([name]) => ['requests', 'bytes_in', 'bytes_out'].includes(name));

const siteRollup = (table: string, seconds: number, counts: readonly (readonly [string, string])[]) => [
  `CREATE TABLE IF NOT EXISTS ${table} (site_id UInt32, bucket Int64, ${counts.map(([name]) => `${name} UInt64`).join(', ')})
   ENGINE = SummingMergeTree ${partitionBy(table)} ORDER BY (site_id, bucket) ${FINE}`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_mv TO ${table} AS
   SELECT site_id, intDiv(time_ms, ${seconds * 1000}) * ${seconds} AS bucket,
     ${counts.map(([name, expression]) => `${expression} AS ${name}`).join(', ')}
   FROM access_logs WHERE site_id > 0 GROUP BY site_id, bucket`,
];

// Every site together, one row an interval (an administrator's chart of all sites).
const siteTotals = (table: string, seconds: number) => [
  `CREATE TABLE IF NOT EXISTS ${table} (bucket Int64, ${SITE_COUNTS.map(([name]) => `${name} UInt64`).join(', ')})
   ENGINE = SummingMergeTree ${partitionBy(table)} ORDER BY bucket`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_mv TO ${table} AS
   SELECT intDiv(time_ms, ${seconds * 1000}) * ${seconds} AS bucket,
     ${SITE_COUNTS.map(([name, expression]) => `${expression} AS ${name}`).join(', ')}
   FROM access_logs WHERE site_id > 0 GROUP BY bucket`,
];

// Each stream line counts for its stream and for stream 0, every stream together (ALL_STREAMS).
const streamRollup = (table: string, seconds: number) => [
  `CREATE TABLE IF NOT EXISTS ${table} (stream_id UInt32, bucket Int64,
     connections UInt64, failed UInt64, bytes_in UInt64, bytes_out UInt64, session_ms Int64)
   ENGINE = SummingMergeTree ${partitionBy(table)} ORDER BY (stream_id, bucket) ${FINE}`,
  `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_mv TO ${table} AS
   SELECT arrayJoin(if(stream_id > 0, [stream_id, toUInt32(0)], emptyArrayUInt32())) AS stream_id,
     intDiv(time_ms, ${seconds * 1000}) * ${seconds} AS bucket,
     count() AS connections, sum(status >= 400) AS failed, sum(bytes_received) AS bytes_in,
     sum(bytes_sent) AS bytes_out, sum(session_time_ms) AS session_ms
   FROM stream_logs GROUP BY stream_id, bucket`,
];

export const CLICKHOUSE_SCHEMA: readonly string[] = [
  ACCESS_LOGS,
  STREAM_LOGS,
  ...TRAFFIC_ROLLUPS.flatMap(({ table, seconds }) => siteRollup(table, seconds, SITE_COUNTS)),
  ...siteRollup('site_traffic_5min', USAGE_SAMPLE_SECONDS, USAGE_COUNTS),
  ...SITE_TOTALS.flatMap(({ table, seconds }) => siteTotals(table, seconds)),
  ...STREAM_ROLLUPS.flatMap(({ table, seconds }) => streamRollup(table, seconds)),
];

/**
 * Columns added to a table after it was first made, each added where it is missing (the server's
 * ALTER has no IF NOT EXISTS for columns in every version we support). Runs after CLICKHOUSE_SCHEMA.
 */
export const CLICKHOUSE_ADDED_COLUMNS: readonly { table: string; column: string; type: string }[] = [
  // The client's country as the edge looked it up ('' unknown).
  { table: 'access_logs', column: 'country', type: "String DEFAULT ''" },
];
