import type { Generated } from 'kysely';

/** The tables of /sys/op (migration 2026-11-26T0400-sys-op). */

export interface AgentReleasesTable {
  id: Generated<number>;
  version: string;
  sha256: string;
  size: number;
  source: string;
  created_at: number;
  /** The bundle in the blob store; null for a release kept on disk before the blob store (imported at start). */
  blob_id: Generated<string | null>;
}

export interface AgentUpgradesTable {
  id: Generated<number>;
  release_id: number;
  version: string;
  state: string;
  wave: number;
  wave_percent: number;
  max_failures: number;
  node_timeout_s: number;
  reason: Generated<string>;
  created_at: number;
  finished_at: number | null;
}

export interface AgentChecksTable {
  id: Generated<number>;
  created_at: number;
}

export interface AgentCommandsTable {
  id: Generated<number>;
  node_id: number;
  kind: string;
  ref_id: number;
  payload: string;
  state: string;
  wave: number | null;
  from_version: Generated<string>;
  result: Generated<string>;
  log: Generated<string>;
  created_at: number;
  sent_at: number | null;
  updated_at: number;
}

export interface SysOpsTable {
  id: Generated<number>;
  kind: string;
  state: string;
  version: string;
  log: string;
  created_at: number;
  finished_at: number | null;
  /** A master upgrade's bundle in the blob store, while other masters may still need it. */
  blob_id: Generated<string | null>;
}

export interface SysOpTables {
  agent_releases: AgentReleasesTable;
  agent_upgrades: AgentUpgradesTable;
  agent_checks: AgentChecksTable;
  agent_commands: AgentCommandsTable;
  sys_ops: SysOpsTable;
}
