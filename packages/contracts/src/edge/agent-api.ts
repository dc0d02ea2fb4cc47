import { type Static, Type } from 'typebox';
import { IpAddress } from './fields.ts';
import { OriginHealthEntry } from './health-check.ts';
import { EdgeSnapshot } from './snapshot.ts';

/**
 * The agent API under /agent/v1 (same {code,msg,data} envelope as /v1). Before it is accepted an
 * agent proves itself with the cluster install token, then with `Node-Secret` while it waits;
 * once accepted, every call carries its own credential in the `Node-Token` header.
 */
export const NODE_TOKEN_HEADER = 'node-token';
export const NODE_SECRET_HEADER = 'node-secret';

/** The agent's loopback control server (version probe, stub_status, purge); streams may not take it. */
export const AGENT_CONTROL_PORT = 8190;

/** POST /agent/v1/register */
export const RegisterNodeBody = Type.Object(
  {
    install_token: Type.String({ minLength: 16, maxLength: 128 }),
    hostname: Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$' }),
    ips: Type.Array(IpAddress, { minItems: 1, maxItems: 32 }),
    agent_version: Type.String({ maxLength: 32, pattern: '^[0-9A-Za-z.+-]*$' }),
  },
  { additionalProperties: false },
);
export type RegisterNodeBody = Static<typeof RegisterNodeBody>;

export const NodeRegistration = Type.Object({ pending_id: Type.Integer(), poll_secret: Type.String() });
export type NodeRegistration = Static<typeof NodeRegistration>;

/** GET /agent/v1/register/{pending_id} with Node-Secret: the credential appears once, when accepted. */
export const RegistrationState = Type.Object({
  state: Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('rejected')]),
  node_id: Type.Optional(Type.Integer()),
  credential: Type.Optional(Type.String()),
});
export type RegistrationState = Static<typeof RegistrationState>;

/** GET /agent/v1/config?version=N&wait=S: held open up to S seconds (at most 60) while N is current. */
export const ConfigQuery = Type.Object({
  version: Type.Optional(Type.Integer({ minimum: 0 })),
  wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 60, default: 30 })),
});
export type ConfigQuery = Static<typeof ConfigQuery>;

export const ConfigAnswer = Type.Object({
  version: Type.Integer(),
  changed: Type.Boolean(),
  snapshot: Type.Optional(EdgeSnapshot),
});
export type ConfigAnswer = Static<typeof ConfigAnswer>;

export const ApplyError = Type.Object({
  kind: Type.Union([Type.Literal('site'), Type.Literal('stream'), Type.Literal('cert')]),
  id: Type.Integer(),
  error: Type.String({ maxLength: 2000 }),
});
export type ApplyError = Static<typeof ApplyError>;

/** POST /agent/v1/status: what is live on the node. */
export const NodeStatusBody = Type.Object(
  {
    applied_version: Type.Integer({ minimum: 0 }),
    apply_errors: Type.Array(ApplyError, { maxItems: 10_000 }),
    last_error: Type.String({ maxLength: 4000 }),
    dropped_log_lines: Type.Integer({ minimum: 0 }),
    /** Added later: the node's health checks of site origins; absent keeps what the node reported before. */
    origin_health: Type.Optional(Type.Array(OriginHealthEntry, { maxItems: 100_000 })),
  },
  { additionalProperties: false },
);
export type NodeStatusBody = Static<typeof NodeStatusBody>;

/** One access log line as nginx writes it (JSON) and the agent forwards it. */
export const AccessLogLine = Type.Object({
  time: Type.Number({ description: 'seconds since the epoch, with milliseconds' }),
  site_id: Type.Integer(),
  client_ip: Type.String({ maxLength: 64 }),
  method: Type.String({ maxLength: 16 }),
  host: Type.String({ maxLength: 255 }),
  uri: Type.String({ maxLength: 4096 }),
  status: Type.Integer(),
  bytes_sent: Type.Integer(),
  bytes_received: Type.Integer(),
  request_time: Type.Number(),
  upstream_time: Type.Union([Type.Number(), Type.Null()]),
  cache_status: Type.String({ maxLength: 16 }),
  user_agent: Type.String({ maxLength: 1024 }),
  referer: Type.String({ maxLength: 2048 }),
  block_reason: Type.String({ maxLength: 256 }),
  /** Added later: the client's country (ISO 3166-1 alpha-2) from the node's GeoIP database; '' unknown. */
  country: Type.Optional(Type.String({ maxLength: 2 })),
});
export type AccessLogLine = Static<typeof AccessLogLine>;

export const StreamLogLine = Type.Object({
  time: Type.Number(),
  stream_id: Type.Integer(),
  client_ip: Type.String({ maxLength: 64 }),
  protocol: Type.String({ maxLength: 8 }),
  status: Type.Integer(),
  bytes_sent: Type.Integer(),
  bytes_received: Type.Integer(),
  session_time: Type.Number(),
  upstream: Type.String({ maxLength: 255 }),
});
export type StreamLogLine = Static<typeof StreamLogLine>;

/** POST /agent/v1/logs: a batch is stored exactly once per (node, seq); a repeat is acknowledged. */
export const LogBatchBody = Type.Object(
  {
    seq: Type.Integer({ minimum: 1 }),
    access: Type.Array(AccessLogLine, { maxItems: 10_000 }),
    stream: Type.Array(StreamLogLine, { maxItems: 10_000 }),
  },
  { additionalProperties: false },
);
export type LogBatchBody = Static<typeof LogBatchBody>;

export const LogBatchAck = Type.Object({ seq: Type.Integer(), duplicate: Type.Boolean() });
export type LogBatchAck = Static<typeof LogBatchAck>;

/**
 * Totals for one site in one minute on this node *so far*: the master keeps the latest report per
 * (site, minute, node), so a repeated or retried report never double-counts.
 */
export const SiteMinute = Type.Object({
  site_id: Type.Integer(),
  minute: Type.Integer({ description: 'start of the minute, seconds since the epoch' }),
  requests: Type.Integer({ minimum: 0 }),
  bytes_in: Type.Integer({ minimum: 0 }),
  bytes_out: Type.Integer({ minimum: 0 }),
  status_2xx: Type.Integer({ minimum: 0 }),
  status_3xx: Type.Integer({ minimum: 0 }),
  status_4xx: Type.Integer({ minimum: 0 }),
  status_5xx: Type.Integer({ minimum: 0 }),
  cache_hits: Type.Integer({ minimum: 0 }),
});
export type SiteMinute = Static<typeof SiteMinute>;

/** POST /agent/v1/metrics, every 10 s. */
export const NodeMetricsBody = Type.Object(
  {
    time: Type.Integer({ description: 'seconds since the epoch' }),
    cpu_percent: Type.Number({ minimum: 0 }),
    memory_used_bytes: Type.Integer({ minimum: 0 }),
    memory_total_bytes: Type.Integer({ minimum: 0 }),
    load1: Type.Number({ minimum: 0 }),
    connections: Type.Integer({ minimum: 0 }),
    bytes_in: Type.Integer({ minimum: 0, description: 'since the previous report' }),
    bytes_out: Type.Integer({ minimum: 0, description: 'since the previous report' }),
    // Added later: optional, so agents that do not send them still report.
    requests: Type.Optional(Type.Integer({ minimum: 0, description: 'HTTP requests since the previous report' })),
    load5: Type.Optional(Type.Number({ minimum: 0 })),
    load15: Type.Optional(Type.Number({ minimum: 0 })),
    disk_used_bytes: Type.Optional(
      Type.Integer({ minimum: 0, description: 'of the file system of the data directory' }),
    ),
    disk_total_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
    nginx_up: Type.Optional(Type.Boolean({ description: 'whether nginx answered its status page' })),
    sites: Type.Array(SiteMinute, { maxItems: 100_000 }),
  },
  { additionalProperties: false },
);
export type NodeMetricsBody = Static<typeof NodeMetricsBody>;

export const JobResultBody = Type.Object(
  {
    state: Type.Union([Type.Literal('done'), Type.Literal('failed')]),
    error: Type.String({ maxLength: 2000 }),
  },
  { additionalProperties: false },
);
export type JobResultBody = Static<typeof JobResultBody>;
