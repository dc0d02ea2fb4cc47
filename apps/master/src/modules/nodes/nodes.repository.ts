import { hasAccess, PERMISSIONS } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { Database, NodesTable } from '../../db/schema.ts';

export type NodeRow = Selectable<NodesTable>;

export interface NodeView {
  id: number;
  name: string;
  ips: string[];
  group_id: number | null;
  region_id: number | null;
  enabled: boolean;
  maintenance: boolean;
  http_port: number;
  https_port: number;
  max_cache_size_mb: number;
  status: 'online' | 'offline';
  last_seen_at: string | null;
  applied_version: number;
  last_error: string;
  dropped_log_lines: number;
  agent_version: string;
  apply_errors: { kind: string; id: number; error: string }[];
  clock_offset_seconds: number | null;
}

/** An agent holds a long poll open; one that has not called for this long is offline. */
export const OFFLINE_AFTER_MS = 90_000;

export const presentNode = (
  row: NodeRow,
  errors: { kind: string; object_id: number; error: string }[],
  now = Date.now(),
): NodeView => ({
  id: row.id,
  name: row.name,
  ips: JSON.parse(row.ips) as string[],
  group_id: row.group_id,
  region_id: row.region_id,
  enabled: row.enabled === 1,
  maintenance: row.maintenance === 1,
  http_port: row.http_port,
  https_port: row.https_port,
  max_cache_size_mb: row.max_cache_size_mb,
  status: row.last_seen_at !== null && now - row.last_seen_at < OFFLINE_AFTER_MS ? 'online' : 'offline',
  last_seen_at: row.last_seen_at === null ? null : new Date(row.last_seen_at).toISOString(),
  applied_version: row.applied_version,
  last_error: row.last_error,
  dropped_log_lines: row.dropped_log_lines,
  agent_version: row.agent_version,
  apply_errors: errors.map((entry) => ({ kind: entry.kind, id: entry.object_id, error: entry.error })),
  clock_offset_seconds: row.clock_offset_seconds === null ? null : Number(row.clock_offset_seconds),
});

export async function listNodes(db: Kysely<Database>, page: number, limit: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('nodes')
      .selectAll()
      .orderBy('id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('nodes')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const errors =
    rows.length === 0
      ? []
      : await db
          .selectFrom('node_apply_errors')
          .selectAll()
          .where(
            'node_id',
            'in',
            rows.map((row) => row.id),
          )
          .execute();
  return {
    list: rows.map((row) =>
      presentNode(
        row,
        errors.filter((entry) => entry.node_id === row.id),
      ),
    ),
    total: Number(count.n),
  };
}

export const findNode = (db: Kysely<Database>, id: number) =>
  db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();

const nodeByCredential = prepared(
  (db: Kysely<Database>, credentialHash: string) =>
    db.selectFrom('nodes').selectAll().where('credential_hash', '=', credentialHash),
  (credentialHash) => [credentialHash],
);

const seenAt = prepared(
  (db: Kysely<Database>, nodeId: number, at: number) =>
    db.updateTable('nodes').set({ last_seen_at: at }).where('id', '=', nodeId),
  (nodeId, at) => [at, nodeId],
);

/** Stores when a node last called (agent-auth.ts decides how often). */
export async function markNodeSeen(db: Kysely<Database>, nodeId: number, at: number): Promise<void> {
  await seenAt(db, nodeId, at);
}

/** What a node's status report says of the config it applied. */
export interface AppliedState {
  applied_version: number;
  last_error: string;
  dropped_log_lines: number;
  updated_at: number;
}

const appliedState = prepared(
  (db: Kysely<Database>, nodeId: number, state: AppliedState) =>
    db
      .updateTable('nodes')
      .set({
        applied_version: state.applied_version,
        last_error: state.last_error,
        dropped_log_lines: state.dropped_log_lines,
        updated_at: state.updated_at,
      })
      .where('id', '=', nodeId),
  (nodeId, state) => [state.applied_version, state.last_error, state.dropped_log_lines, state.updated_at, nodeId],
);

const applyErrorsCleared = prepared(
  (db: Kysely<Database>, nodeId: number) => db.deleteFrom('node_apply_errors').where('node_id', '=', nodeId),
  (nodeId) => [nodeId],
);

/**
 * A status report's first two writes (every agent sends one after each change): the applied state,
 * and the apply errors of the report before cleared (the caller inserts the new ones).
 */
export async function recordAppliedState(db: Kysely<Database>, nodeId: number, state: AppliedState): Promise<void> {
  await appliedState(db, nodeId, state);
  await applyErrorsCleared(db, nodeId);
}

/** The node of a credential (its hash): every agent call asks, so the query is compiled once. */
export const findNodeByCredential = async (db: Kysely<Database>, credentialHash: string) =>
  (await nodeByCredential(db, credentialHash))[0];

export const nodeErrors = (db: Kysely<Database>, nodeId: number) =>
  db.selectFrom('node_apply_errors').selectAll().where('node_id', '=', nodeId).execute();

/** Stores the node's measured clock offset (only when it changed: a report comes every few seconds). */
export async function saveClockOffset(db: Kysely<Database>, nodeId: number, offsetSeconds: number) {
  await db
    .updateTable('nodes')
    .set({ clock_offset_seconds: offsetSeconds })
    .where('id', '=', nodeId)
    .where((eb) => eb.or([eb('clock_offset_seconds', 'is', null), eb('clock_offset_seconds', '!=', offsetSeconds)]))
    .execute();
}

/** Marks the skew told; false when it was already (another report, another master). */
export async function claimClockSkewNotice(db: Kysely<Database>, nodeId: number, now: number): Promise<boolean> {
  const row = await db
    .updateTable('nodes')
    .set({ clock_skew_noticed_at: now })
    .where('id', '=', nodeId)
    .where('clock_skew_noticed_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The skew is over: a later one is told again. */
export async function clearClockSkewNotice(db: Kysely<Database>, nodeId: number) {
  await db
    .updateTable('nodes')
    .set({ clock_skew_noticed_at: null })
    .where('id', '=', nodeId)
    .where('clock_skew_noticed_at', 'is not', null)
    .execute();
}

/** Enabled administrators holding admin:node: the ones told about a node's faults. */
export async function nodeAdminIds(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'access'])
    .where('type', '=', 1)
    .where('status', '=', 'enabled')
    .orderBy('id')
    .execute();
  return rows
    .filter((row) => hasAccess(JSON.parse(row.access) as string[], [PERMISSIONS.adminNode]))
    .map((row) => Number(row.id));
}
