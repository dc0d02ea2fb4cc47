import { type Static, Type } from 'typebox';

/**
 * /sys/op: agent release bundles and their rolling upgrades, the master's own upgrade and transfer,
 * and the agents' self-test; with the commands the agents take for them under /agent/v1.
 */

/** A release version as the agent and master print it: 1.2.3, 1.2.3-rc.1, 1.2.3+build. */
export const ReleaseVersion = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[0-9A-Za-z][0-9A-Za-z.+-]*$',
  description: 'letters, digits, dot, plus and dash; starts with a letter or digit',
});
export const Sha256Hex = Type.String({ pattern: '^[0-9a-f]{64}$', description: '64 lowercase hex digits' });
/** Where the master is reached: scheme, host (or [IPv6]) and port only. */
export const MasterAddress = Type.String({
  maxLength: 300,
  pattern: '^https?://(?:[A-Za-z0-9.-]+|\\[[0-9A-Fa-f:]+\\])(?::[0-9]{1,5})?$',
  description: 'http(s)://host[:port], nothing after it',
});

/** The largest release bundle the master takes (bytes). */
export const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

export const AgentRelease = Type.Object({
  id: Type.Integer(),
  version: Type.String(),
  sha256: Type.String(),
  size: Type.Integer(),
  source: Type.Union([Type.Literal('upload'), Type.Literal('built-in')]),
  created_at: Type.String(),
});
export type AgentRelease = Static<typeof AgentRelease>;

/** POST /v1/agent/upgrades/releases?version=&sha256= with the bundle as application/octet-stream. */
export const UploadReleaseQuery = Type.Object(
  { version: ReleaseVersion, sha256: Sha256Hex },
  { additionalProperties: false },
);
export type UploadReleaseQuery = Static<typeof UploadReleaseQuery>;

export const AGENT_UPGRADE_STATES = ['running', 'done', 'halted', 'cancelled'] as const;
export type AgentUpgradeState = (typeof AGENT_UPGRADE_STATES)[number];
export const UPGRADE_NODE_STATES = [
  'waiting',
  'pending',
  'sent',
  'done',
  'rolled_back',
  'failed',
  'timeout',
  'cancelled',
] as const;
export type UpgradeNodeState = (typeof UPGRADE_NODE_STATES)[number];

/** POST /v1/agent/upgrades: one node first, then `wave_percent` of the nodes per wave. */
export const StartAgentUpgradeBody = Type.Object(
  {
    release_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    wave_percent: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    /** The rollout halts once more nodes than this failed or rolled back. */
    max_failures: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
    /** How long a node may take to answer before it counts as failed. */
    node_timeout_s: Type.Integer({ minimum: 30, maximum: 86_400, default: 600 }),
    /** Only these nodes; every enabled node when left out. */
    node_ids: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { minItems: 1, maxItems: 10_000 }),
    ),
  },
  { additionalProperties: false },
);
export type StartAgentUpgradeBody = Static<typeof StartAgentUpgradeBody>;

export const UpgradeProgress = Type.Object({
  total: Type.Integer(),
  waiting: Type.Integer(),
  running: Type.Integer(),
  done: Type.Integer(),
  rolled_back: Type.Integer(),
  failed: Type.Integer(),
});
export type UpgradeProgress = Static<typeof UpgradeProgress>;

export const AgentUpgrade = Type.Object({
  id: Type.Integer(),
  release_id: Type.Integer(),
  version: Type.String(),
  state: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('halted'), Type.Literal('cancelled')]),
  wave: Type.Integer({ description: 'the wave sent last; 0 is the first node alone' }),
  wave_percent: Type.Integer(),
  max_failures: Type.Integer(),
  progress: UpgradeProgress,
  reason: Type.String(),
  created_at: Type.String(),
  finished_at: Type.Union([Type.String(), Type.Null()]),
});
export type AgentUpgrade = Static<typeof AgentUpgrade>;

export const AgentUpgradeList = Type.Object({
  list: Type.Array(AgentUpgrade),
  total: Type.Integer(),
  releases: Type.Array(AgentRelease),
});
export type AgentUpgradeList = Static<typeof AgentUpgradeList>;

export const UpgradeNodeLog = Type.Object({
  node_id: Type.Integer(),
  name: Type.String(),
  wave: Type.Union([Type.Integer(), Type.Null()]),
  state: Type.Union([
    Type.Literal('waiting'),
    Type.Literal('pending'),
    Type.Literal('sent'),
    Type.Literal('done'),
    Type.Literal('rolled_back'),
    Type.Literal('failed'),
    Type.Literal('timeout'),
    Type.Literal('cancelled'),
  ]),
  from_version: Type.String(),
  log: Type.String(),
  updated_at: Type.String(),
});
export type UpgradeNodeLog = Static<typeof UpgradeNodeLog>;

/** GET /v1/agent/upgrades/log/{id} */
export const AgentUpgradeLog = Type.Object({ upgrade: AgentUpgrade, nodes: Type.Array(UpgradeNodeLog) });
export type AgentUpgradeLog = Static<typeof AgentUpgradeLog>;

/** POST /v1/maintain/agent-check: waits up to `wait` seconds for the answers. */
export const AgentCheckBody = Type.Object(
  { wait: Type.Integer({ minimum: 0, maximum: 30, default: 5 }) },
  { additionalProperties: false },
);
export type AgentCheckBody = Static<typeof AgentCheckBody>;

export const AgentCheckNode = Type.Object({
  node_id: Type.Integer(),
  name: Type.String(),
  state: Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('failed')]),
  ok: Type.Boolean({ description: 'every check passed' }),
  nginx_config_ok: Type.Union([Type.Boolean(), Type.Null()]),
  nginx_running: Type.Union([Type.Boolean(), Type.Null()]),
  disk_free_bytes: Type.Union([Type.Integer(), Type.Null()]),
  disk_total_bytes: Type.Union([Type.Integer(), Type.Null()]),
  clock_skew_ms: Type.Union([Type.Integer(), Type.Null()]),
  applied_version: Type.Union([Type.Integer(), Type.Null()]),
  expected_version: Type.Integer(),
  agent_version: Type.String(),
  problems: Type.Array(Type.String()),
});
export type AgentCheckNode = Static<typeof AgentCheckNode>;

export const AgentCheck = Type.Object({
  id: Type.Integer(),
  created_at: Type.String(),
  nodes: Type.Array(AgentCheckNode),
});
export type AgentCheck = Static<typeof AgentCheck>;

/** A check fails below this much free disk or beyond this clock skew. */
export const AGENT_CHECK_LIMITS = { minFreeBytes: 1024 * 1024 * 1024, maxFreeRatio: 0.05, maxSkewMs: 2000 } as const;

export const SysOpLogLine = Type.Object({
  time: Type.String(),
  level: Type.Union([Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]),
  text: Type.String(),
});
export type SysOpLogLine = Static<typeof SysOpLogLine>;

export const SYS_OP_STATES = ['running', 'waiting', 'done', 'failed', 'aborted'] as const;
export type SysOpState = (typeof SYS_OP_STATES)[number];

/** One master upgrade or transfer, with its log. */
export const SysOp = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('master-upgrade'), Type.Literal('transfer')]),
  state: Type.Union([
    Type.Literal('running'),
    Type.Literal('waiting'),
    Type.Literal('done'),
    Type.Literal('failed'),
    Type.Literal('aborted'),
  ]),
  version: Type.String({ description: 'the release (upgrade) or the new address (transfer)' }),
  created_at: Type.String(),
  finished_at: Type.Union([Type.String(), Type.Null()]),
  log: Type.Array(SysOpLogLine),
});
export type SysOp = Static<typeof SysOp>;

/** GET /v1/master/upgrades */
export const MasterUpgradeList = Type.Object({
  current_version: Type.String(),
  dialect: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  list: Type.Array(SysOp),
  total: Type.Integer(),
});
export type MasterUpgradeList = Static<typeof MasterUpgradeList>;

/** POST /v1/master/upgrades?version=&sha256= with the release bundle (tar.gz) as application/octet-stream. */
export const MasterUpgradeQuery = UploadReleaseQuery;

/** GET /v1/master/upgrades/log: the given upgrade's log, or the newest's. */
export const SysOpLogQuery = Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })) });
export type SysOpLogQuery = Static<typeof SysOpLogQuery>;
export const SysOpLogAnswer = Type.Object({ op: Type.Union([SysOp, Type.Null()]) });
export type SysOpLogAnswer = Static<typeof SysOpLogAnswer>;

/** POST /v1/master/start-transfer */
export const StartTransferBody = Type.Object(
  {
    new_master: MasterAddress,
    /** How long to wait for the new master to answer before the transfer fails. */
    wait_minutes: Type.Integer({ minimum: 1, maximum: 1440, default: 60 }),
  },
  { additionalProperties: false },
);
export type StartTransferBody = Static<typeof StartTransferBody>;

// ---- /agent/v1: commands an agent takes and answers ----

export const AgentCommand = Type.Union([
  Type.Object({ id: Type.Integer(), kind: Type.Literal('self-test'), issued_at: Type.Integer() }),
  Type.Object({
    id: Type.Integer(),
    kind: Type.Literal('upgrade'),
    issued_at: Type.Integer(),
    release_id: Type.Integer(),
    version: ReleaseVersion,
    sha256: Sha256Hex,
    size: Type.Integer({ minimum: 1 }),
  }),
  Type.Object({
    id: Type.Integer(),
    kind: Type.Literal('master-address'),
    issued_at: Type.Integer(),
    master: MasterAddress,
  }),
]);
export type AgentCommand = Static<typeof AgentCommand>;

/** GET /agent/v1/commands?wait=S: held up to S seconds while nothing is waiting for the node. */
export const CommandsQuery = Type.Object({
  wait: Type.Optional(Type.Integer({ minimum: 0, maximum: 60, default: 25 })),
});
export const CommandsAnswer = Type.Object({ commands: Type.Array(AgentCommand) });
export type CommandsAnswer = Static<typeof CommandsAnswer>;

export const SelfTestResult = Type.Object(
  {
    nginx_config_ok: Type.Boolean(),
    nginx_running: Type.Boolean(),
    nginx_output: Type.String({ maxLength: 2000 }),
    disk_free_bytes: Type.Integer({ minimum: 0 }),
    disk_total_bytes: Type.Integer({ minimum: 0 }),
    applied_version: Type.Integer({ minimum: 0 }),
    agent_version: Type.String({ maxLength: 32 }),
    /** The agent's clock when it answered (ms since the epoch); the master compares it with its own. */
    time_ms: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type SelfTestResult = Static<typeof SelfTestResult>;

/** POST /agent/v1/commands/{id}/result */
export const CommandResultBody = Type.Object(
  {
    state: Type.Union([Type.Literal('done'), Type.Literal('failed'), Type.Literal('rolled_back')]),
    log: Type.String({ maxLength: 8000 }),
    self_test: Type.Optional(SelfTestResult),
  },
  { additionalProperties: false },
);
export type CommandResultBody = Static<typeof CommandResultBody>;
