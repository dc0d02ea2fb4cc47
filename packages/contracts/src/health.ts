import { type Static, Type } from 'typebox';
import { LogTime } from './edge/protection-api.ts';
import { Limit, Page } from './envelope.ts';
import { Id } from './fields.ts';

/** Who decides that a node IP is down: the master's probe, the other nodes' probes, or both. */
export const MonitorVoters = Type.Union(
  [Type.Literal('master'), Type.Literal('nodes'), Type.Literal('master_and_nodes')],
  {
    description: 'master: the master alone; nodes: the other nodes; master_and_nodes: a majority of all of them',
  },
);
export type MonitorVoters = Static<typeof MonitorVoters>;

/** Empty, or a host name (the same rule as an origin's Host header). */
const HOST_OR_EMPTY =
  '^(?:|(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)$';

/**
 * The value of `global-0-node-monitor` (/node/monitor-setting): how every enabled node IP is probed,
 * and after how many results in a row it leaves DNS (down) or comes back (up).
 */
export const NodeMonitorSettings = Type.Object(
  {
    enabled: Type.Boolean({ description: 'probe and fail over; off: every IP keeps its state' }),
    probe: Type.Union([Type.Literal('http'), Type.Literal('tcp')]),
    path: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: "^/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*$",
      description: 'HTTP probes: the path requested on the node’s HTTP port',
    }),
    expected_status: Type.Integer({
      minimum: 100,
      maximum: 599,
      description: 'HTTP probes: the status that counts as up',
    }),
    host: Type.Optional(
      Type.String({
        maxLength: 253,
        pattern: HOST_OR_EMPTY,
        description:
          'HTTP probes: the Host header, a site the edges serve; empty: the IP (answered as an unknown host)',
      }),
    ),
    interval_seconds: Type.Number({
      minimum: 0.1,
      maximum: 3600,
      description: 'seconds between two probes of an IP, from 0.1 to 3600',
    }),
    timeout_seconds: Type.Number({
      minimum: 0.1,
      maximum: 60,
      description: 'seconds a probe may take, from 0.1 to 60 and at most the interval',
    }),
    failures: Type.Integer({
      minimum: 1,
      maximum: 20,
      description: 'failed probes in a row before an IP is down, from 1 to 20',
    }),
    successes: Type.Integer({
      minimum: 1,
      maximum: 20,
      description: 'good probes in a row before a down IP is up, from 1 to 20',
    }),
    voters: MonitorVoters,
  },
  { additionalProperties: false },
);
export type NodeMonitorSettings = Static<typeof NodeMonitorSettings>;

// A TCP connect by default: an edge answers a request for its bare IP as for any unknown host (a
// 4xx page or a closed connection, /config settings), so an HTTP probe needs a path the operator chose.
export const DEFAULT_NODE_MONITOR: NodeMonitorSettings = {
  enabled: true,
  probe: 'tcp',
  path: '/',
  expected_status: 200,
  host: '',
  interval_seconds: 30,
  timeout_seconds: 5,
  failures: 3,
  successes: 2,
  voters: 'master',
};

export const IpState = Type.Union([Type.Literal('up'), Type.Literal('down')]);
export type IpState = Static<typeof IpState>;

/** One probe's say about an IP when it switched: who probed, its last result and its streak. */
export const ProbeVote = Type.Object({
  probe: Type.String({ description: 'master, or node:{id} for a node probing the others' }),
  ok: Type.Boolean(),
  /** Results in a row with that outcome. */
  streak: Type.Integer({ minimum: 0 }),
  detail: Type.String(),
});
export type ProbeVote = Static<typeof ProbeVote>;

/** GET /v1/log/ip-switch: one switch of a node IP. */
export const IpSwitchEntry = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ description: 'ISO 8601' }),
  ip: Type.String(),
  node_id: Type.Integer(),
  node_name: Type.String(),
  line_group: Type.String(),
  line: Type.String(),
  from: IpState,
  to: IpState,
  reason: Type.String(),
  votes: Type.Array(ProbeVote),
});
export type IpSwitchEntry = Static<typeof IpSwitchEntry>;

export const IpSwitchQuery = Type.Object({
  page: Type.Optional(Page),
  limit: Type.Optional(Limit),
  ip: Type.Optional(Type.String({ maxLength: 64 })),
  node_id: Type.Optional(Id),
  line_group: Type.Optional(Type.String({ maxLength: 128, description: 'line group name contains' })),
  line: Type.Optional(Type.String({ maxLength: 128, description: 'line name contains' })),
  from: Type.Optional(IpState),
  to: Type.Optional(IpState),
  start: Type.Optional(LogTime),
  end: Type.Optional(LogTime),
});
export type IpSwitchQuery = Static<typeof IpSwitchQuery>;

/** GET /v1/monitor/node/ip-state: every enabled node IP as the health checks see it now. */
export const NodeIpStateEntry = Type.Object({
  ip: Type.String(),
  node_id: Type.Integer(),
  node_name: Type.String(),
  state: IpState,
  /** ISO 8601 of the last switch (or of when it was first probed); null: not probed yet. */
  changed_at: Type.Union([Type.String(), Type.Null()]),
  votes: Type.Array(ProbeVote),
});
export type NodeIpStateEntry = Static<typeof NodeIpStateEntry>;

/** GET /agent/v1/health/targets: what an agent probes (the other nodes' IPs) and how. */
export const AgentProbePlan = Type.Object({
  enabled: Type.Boolean({ description: 'false: the nodes do not vote; probe nothing' }),
  probe: Type.Union([Type.Literal('http'), Type.Literal('tcp')]),
  path: Type.String(),
  expected_status: Type.Integer(),
  host: Type.String(),
  interval_seconds: Type.Number(),
  timeout_seconds: Type.Number(),
  targets: Type.Array(Type.Object({ ip: Type.String(), port: Type.Integer({ minimum: 1, maximum: 65535 }) })),
});
export type AgentProbePlan = Static<typeof AgentProbePlan>;

/** POST /agent/v1/health/probes: one round of an agent's probes. */
export const AgentProbeReport = Type.Object(
  {
    results: Type.Array(
      Type.Object({
        ip: Type.String({ maxLength: 64 }),
        ok: Type.Boolean(),
        detail: Type.String({ maxLength: 200 }),
      }),
      { maxItems: 10000 },
    ),
  },
  { additionalProperties: false },
);
export type AgentProbeReport = Static<typeof AgentProbeReport>;
