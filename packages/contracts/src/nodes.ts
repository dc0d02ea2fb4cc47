import { type Static, Type } from 'typebox';
import { IpAddress, ObjectName, Port } from './edge/fields.ts';
import { Id } from './fields.ts';

/**
 * Edge nodes as the admin manages them (`/v1/nodes`, `/v1/pending-nodes`, `/node/list`): an agent
 * registers with the install token and waits as a pending node until an admin accepts it (with a
 * name, IPs, line group and region) or rejects it.
 */

const Time = Type.String({ description: 'ISO 8601' });

/** The editable fields of a node; on accepting, each falls back to what the agent reported or the default. */
export const nodeFields = {
  name: Type.Optional(ObjectName),
  ips: Type.Optional(
    Type.Array(IpAddress, { minItems: 1, maxItems: 32, description: 'from 1 to 32 IPv4 or IPv6 addresses' }),
  ),
  group_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the line group (node group), or null' })),
  region_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the region, or null' })),
  enabled: Type.Optional(Type.Boolean()),
  /** true: drained from DNS (every line group's records leave its IPs out), then marked. */
  maintenance: Type.Optional(Type.Boolean()),
  http_port: Type.Optional(Port),
  https_port: Type.Optional(Port),
  max_cache_size_mb: Type.Optional(
    Type.Integer({ minimum: 16, maximum: 16_777_216, description: 'from 16 MB to 16 TB' }),
  ),
};

const { maintenance: _maintenance, ...acceptFields } = nodeFields;
export const AddNodeBody = Type.Object({ pending_id: Id, ...acceptFields }, { additionalProperties: false });
export type AddNodeBody = Static<typeof AddNodeBody>;

export const UpdateNodeBody = Type.Object(nodeFields, { additionalProperties: false });
export type UpdateNodeBody = Static<typeof UpdateNodeBody>;

/** A node clock further off than this (either way) is shown on the node list and told to the admins once. */
export const CLOCK_SKEW_SECONDS = 30;

/** Defaults of a node accepted without them. */
export const NODE_DEFAULTS = { http_port: 80, https_port: 443, max_cache_size_mb: 10_240 } as const;

export const NodeApplyError = Type.Object({ kind: Type.String(), id: Type.Integer(), error: Type.String() });

export const NodeView = Type.Object({
  id: Id,
  name: Type.String(),
  ips: Type.Array(Type.String()),
  group_id: Type.Union([Id, Type.Null()]),
  region_id: Type.Union([Id, Type.Null()]),
  enabled: Type.Boolean(),
  maintenance: Type.Boolean(),
  http_port: Type.Integer(),
  https_port: Type.Integer(),
  max_cache_size_mb: Type.Integer(),
  /** online: the agent called within the last 90 s. */
  status: Type.Union([Type.Literal('online'), Type.Literal('offline')]),
  last_seen_at: Type.Union([Time, Type.Null()]),
  /** The config version the node last applied (compare with the master's current one). */
  applied_version: Type.Integer({ minimum: 0 }),
  last_error: Type.String(),
  dropped_log_lines: Type.Integer({ minimum: 0 }),
  agent_version: Type.String(),
  /** Sites, streams and certificates this node reported it could not apply. */
  apply_errors: Type.Array(NodeApplyError),
  /**
   * How many seconds the node's clock runs ahead of the master's (negative: behind), from its last
   * metrics report; null before the first. Past CLOCK_SKEW_SECONDS either way the node list warns.
   */
  clock_offset_seconds: Type.Union([Type.Integer(), Type.Null()]),
});
export type NodeView = Static<typeof NodeView>;

export const PendingNode = Type.Object({
  id: Id,
  hostname: Type.String(),
  ips: Type.Array(Type.String()),
  agent_version: Type.String(),
  /** The address the registration came from. */
  client_ip: Type.String(),
  created_at: Time,
});
export type PendingNode = Static<typeof PendingNode>;

/** A line group (node group) or a region: a name for now. */
export const NodePlace = Type.Object({ id: Id, name: Type.String() });
export type NodePlace = Static<typeof NodePlace>;
