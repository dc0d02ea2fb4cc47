import { type Static, Type } from 'typebox';
import { Cidr } from './edge/protection.ts';
import { LogTime } from './edge/protection-api.ts';
import { Id } from './fields.ts';
import { MONITOR_LIMITS } from './monitor.ts';

/**
 * Node monitoring (admins, `/v1/monitor/node/*` and `/v1/monitor/nodes`): what each agent reports
 * every few seconds (CPU, memory, disk, load, connections, bandwidth, requests) rolled up by minute,
 * hour and day; the sites each node served; the client addresses each node saw.
 */

const Time = Type.String({ description: 'ISO 8601' });
const Count = Type.Integer({ minimum: 0 });
const Gauge = Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'null without a report' });

const rangeFields = {
  /** From (inclusive) and to (exclusive); default: the hour up to now. */
  from: Type.Optional(LogTime),
  to: Type.Optional(LogTime),
};

/** One node, or (none) every node. */
export const NodeRealtimeQuery = Type.Object(
  { node_id: Type.Optional(Id), ...rangeFields },
  { additionalProperties: false },
);
export type NodeRealtimeQuery = Static<typeof NodeRealtimeQuery>;

/**
 * One interval: counters are sums over the interval (and over the nodes); gauges are the mean of
 * the reports in it (CPU and load: mean over the nodes; memory, disk and connections: summed over
 * the nodes). Gauges the agent did not report (older agents send no disk or load5) are null.
 */
export const NodeMetricsPoint = Type.Object({
  time: Time,
  /** Reports received in the interval. */
  reports: Count,
  bytes_in: Count,
  bytes_out: Count,
  requests: Count,
  connections: Gauge,
  cpu_percent: Gauge,
  memory_used_bytes: Gauge,
  memory_total_bytes: Gauge,
  disk_used_bytes: Gauge,
  disk_total_bytes: Gauge,
  load1: Gauge,
  load5: Gauge,
  load15: Gauge,
});
export type NodeMetricsPoint = Static<typeof NodeMetricsPoint>;

export const NodeRealtime = Type.Object({
  /** Seconds per point: 60, 3600 or 86400 (UTC days). */
  interval: Type.Integer({ minimum: 60 }),
  from: Time,
  to: Time,
  /** Every interval of the range, oldest first. */
  points: Type.Array(NodeMetricsPoint),
  totals: Type.Object({ bytes_in: Count, bytes_out: Count, requests: Count }),
});
export type NodeRealtime = Static<typeof NodeRealtime>;

const limitField = (max: number, fallback: number) =>
  Type.Optional(
    Type.Integer({ minimum: 1, maximum: max, default: fallback, description: `a whole number from 1 to ${max}` }),
  );

/** Sites by traffic on one node (or every node), from the agents' per-site minutes. */
export const NodeTopQuery = Type.Object(
  { node_id: Type.Optional(Id), ...rangeFields, limit: limitField(MONITOR_LIMITS.topMaxLimit, 10) },
  { additionalProperties: false },
);
export type NodeTopQuery = Static<typeof NodeTopQuery>;

export const NodeTopEntry = Type.Object({
  /** 0: requests no site serves. */
  site_id: Type.Integer({ minimum: 0 }),
  /** The site's first domain; empty for site 0 or a site deleted since. */
  site_name: Type.String(),
  requests: Count,
  bytes_in: Count,
  bytes_out: Count,
});
export type NodeTopEntry = Static<typeof NodeTopEntry>;

export const NodeTop = Type.Object({ list: Type.Array(NodeTopEntry) });
export type NodeTop = Static<typeof NodeTop>;

/** Client addresses seen on one node (or every node) in the range: HTTP requests and stream connections. */
export const NodeIpLogQuery = Type.Object(
  {
    node_id: Type.Optional(Id),
    ...rangeFields,
    ip: Type.Optional(Cidr),
    limit: limitField(MONITOR_LIMITS.accessLogMaxLimit, 50),
  },
  { additionalProperties: false },
);
export type NodeIpLogQuery = Static<typeof NodeIpLogQuery>;

export const NodeIpLogEntry = Type.Object({
  node_id: Type.Integer(),
  client_ip: Type.String(),
  requests: Count,
  connections: Count,
  bytes_in: Count,
  bytes_out: Count,
  first_seen: Time,
  last_seen: Time,
});
export type NodeIpLogEntry = Static<typeof NodeIpLogEntry>;

export const NodeIpLog = Type.Object({
  /** Most requests and connections first, at most `limit`. */
  list: Type.Array(NodeIpLogEntry),
});
export type NodeIpLog = Static<typeof NodeIpLog>;

export const NODE_STATES = ['online', 'offline', 'disabled', 'never'] as const;

/** A node now: its state and the last report, with the traffic of the last minute. */
export const NodeMonitor = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  ips: Type.Array(Type.String()),
  /** never: no agent call yet; offline: none for 90 s; disabled by an admin. */
  state: Type.Union([Type.Literal('online'), Type.Literal('offline'), Type.Literal('disabled'), Type.Literal('never')]),
  last_seen_at: Type.Union([Time, Type.Null()]),
  agent_version: Type.String(),
  /** The config version the node proved live, and whether it is the current one. */
  applied_version: Count,
  config_current: Type.Boolean(),
  /** nginx applied the last config without error (last_error is empty). */
  nginx_ok: Type.Boolean(),
  /** Whether nginx answered the agent at the newest report; null before one, or from an older agent. */
  nginx_running: Type.Union([Type.Boolean(), Type.Null()]),
  last_error: Type.String(),
  /** The time of the newest report; null before the first. */
  reported_at: Type.Union([Time, Type.Null()]),
  cpu_percent: Gauge,
  memory_used_bytes: Gauge,
  memory_total_bytes: Gauge,
  disk_used_bytes: Gauge,
  disk_total_bytes: Gauge,
  load1: Gauge,
  load5: Gauge,
  load15: Gauge,
  connections: Gauge,
  /** Sums of the reports of the last 60 seconds. */
  last_minute: Type.Object({ bytes_in: Count, bytes_out: Count, requests: Count }),
});
export type NodeMonitor = Static<typeof NodeMonitor>;

export const NodeMonitorList = Type.Object({
  list: Type.Array(NodeMonitor),
  total: Count,
  config_version: Count,
});
export type NodeMonitorList = Static<typeof NodeMonitorList>;
