import type { Generated } from 'kysely';

/** Logs and metrics: a second SQLite file (rampart-logs.db) or the same PostgreSQL database. */
export interface LogBatchesTable {
  node_id: number;
  seq: number;
  lines: number;
  received_at: number;
}

export interface AccessLogsTable {
  id: Generated<number>;
  node_id: number;
  site_id: number;
  time_ms: number;
  client_ip: string;
  method: string;
  host: string;
  uri: string;
  status: number;
  bytes_sent: number;
  bytes_received: number;
  request_time_ms: number;
  upstream_time_ms: number | null;
  cache_status: string;
  user_agent: string;
  referer: string;
  block_reason: string;
  /** The client address as 32 hex digits (see ip-key.ts); null when it is no address. */
  client_ip_key: string | null;
  /** The client's country (ISO 3166-1 alpha-2) as the edge looked it up; '' unknown. */
  country: Generated<string>;
}

export interface StreamLogsTable {
  id: Generated<number>;
  node_id: number;
  stream_id: number;
  time_ms: number;
  client_ip: string;
  protocol: string;
  status: number;
  bytes_sent: number;
  bytes_received: number;
  session_time_ms: number;
  upstream: string;
  /** The client address as 32 hex digits (see ip-key.ts); null when it is no address. */
  client_ip_key: string | null;
}

export interface NodeMetricsTable {
  node_id: number;
  time: number;
  cpu_percent: number;
  memory_used_bytes: number;
  memory_total_bytes: number;
  load1: number;
  connections: number;
  bytes_in: number;
  bytes_out: number;
  /** Reported by newer agents only. */
  requests: number | null;
  load5: number | null;
  load15: number | null;
  disk_used_bytes: number | null;
  disk_total_bytes: number | null;
  /** 1 when nginx answered the agent's status request, 0 when not. */
  nginx_up: number | null;
}

export interface SiteMinutesTable {
  site_id: number;
  minute: number;
  node_id: number;
  requests: number;
  bytes_in: number;
  bytes_out: number;
  status_2xx: number;
  status_3xx: number;
  status_4xx: number;
  status_5xx: number;
  cache_hits: number;
}

/** Site traffic per minute, hour or UTC day; `bucket` is the interval's start in seconds. */
export interface SiteTrafficTable {
  site_id: number;
  bucket: number;
  requests: number;
  bytes_in: number;
  bytes_out: number;
  status_2xx: number;
  status_3xx: number;
  status_4xx: number;
  status_5xx: number;
  cache_hits: number;
  blocked: number;
}

/** Every site's traffic together per minute, hour or UTC day (an administrator's chart of all sites). */
export type SiteTotalsTable = Omit<SiteTrafficTable, 'site_id'>;

/** Site traffic per 5 minutes (the usage samples); `bucket` is the interval's start in seconds. */
export interface SiteUsageSampleTable {
  site_id: number;
  bucket: number;
  requests: number;
  bytes_in: number;
  bytes_out: number;
}

/** Stream traffic per minute, hour or UTC day; `bucket` is the interval's start in seconds. */
export interface StreamTrafficTable {
  stream_id: number;
  bucket: number;
  connections: number;
  failed: number;
  bytes_in: number;
  bytes_out: number;
  session_ms: number;
}

/** Node reports per minute, hour or UTC day: counters summed, gauges as sums over `reports`. */
export interface NodeMetricRollupTable {
  node_id: number;
  bucket: number;
  reports: number;
  /** Reports carrying disk and load5/15 (newer agents). */
  extended_reports: number;
  bytes_in: number;
  bytes_out: number;
  requests: number;
  connections_sum: number;
  cpu_sum: number;
  memory_used_sum: number;
  memory_total_sum: number;
  load1_sum: number;
  load5_sum: number;
  load15_sum: number;
  disk_used_sum: number;
  disk_total_sum: number;
}

/** The next line id of each kind, for a logs store that has no sequences of its own (ClickHouse). */
export interface LogIdCountersTable {
  kind: 'access' | 'stream';
  next_id: number;
}

export interface LogDatabase {
  log_batches: LogBatchesTable;
  log_id_counters: LogIdCountersTable;
  access_logs: AccessLogsTable;
  stream_logs: StreamLogsTable;
  node_metrics: NodeMetricsTable;
  site_minutes: SiteMinutesTable;
  site_traffic_minutes: SiteTrafficTable;
  site_traffic_hours: SiteTrafficTable;
  site_traffic_days: SiteTrafficTable;
  site_totals_minutes: SiteTotalsTable;
  site_totals_hours: SiteTotalsTable;
  site_totals_days: SiteTotalsTable;
  stream_traffic_minutes: StreamTrafficTable;
  stream_traffic_hours: StreamTrafficTable;
  stream_traffic_days: StreamTrafficTable;
  node_metric_minutes: NodeMetricRollupTable;
  node_metric_hours: NodeMetricRollupTable;
  node_metric_days: NodeMetricRollupTable;
  site_traffic_5min: SiteUsageSampleTable;
}

/** The logs and their rollups: what RAMPART_LOGS_URL moves to ClickHouse (the rest stays in SQL). */
export type EventTable =
  | 'access_logs'
  | 'stream_logs'
  | 'site_traffic_minutes'
  | 'site_traffic_hours'
  | 'site_traffic_days'
  | 'site_totals_minutes'
  | 'site_totals_hours'
  | 'site_totals_days'
  | 'site_traffic_5min'
  | 'stream_traffic_minutes'
  | 'stream_traffic_hours'
  | 'stream_traffic_days';

export type EventDatabase = Pick<LogDatabase, EventTable>;
