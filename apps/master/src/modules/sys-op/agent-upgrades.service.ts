import { createReadStream } from 'node:fs';
import {
  type AgentRelease,
  type AgentUpgrade,
  MAX_BUNDLE_BYTES,
  type StartAgentUpgradeBody,
  type UpgradeNodeLog,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError } from '../../errors.ts';
import { agentBundle } from '../agent-install/bundle.ts';
import { type BlobRow, deleteBlob, writeBlob } from '../blobs/blob-store.ts';
import { claimLease } from '../cluster/leases.ts';
import { cancelOpenCommands, commandsOf, insertCommands } from './agent-commands.repository.ts';
import { receiveBundle } from './bundle-store.ts';
import type { CommandBus } from './command-bus.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const RUNNING = ['pending', 'sent'];
const FAILED = ['failed', 'rolled_back', 'timeout'];

function presentRelease(row: {
  id: number;
  version: string;
  sha256: string;
  size: number;
  source: string;
  created_at: number;
}): AgentRelease {
  return {
    id: row.id,
    version: row.version,
    sha256: row.sha256,
    size: row.size,
    source: row.source === 'built-in' ? 'built-in' : 'upload',
    created_at: iso(row.created_at),
  };
}

export const listReleases = async (db: Kysely<Database>) =>
  (await db.selectFrom('agent_releases').selectAll().orderBy('id', 'desc').limit(100).execute()).map(presentRelease);

const alreadyHeld = (version: string) => new AppError('conflict', `version: release ${version} is already held`);

/** Stores the bundle in the blob store, then the release that names it; the bundle goes again when the release cannot be kept. */
async function addRelease(
  db: Kysely<Database>,
  release: { version: string; source: 'upload' | 'built-in' },
  store: () => Promise<BlobRow>,
): Promise<AgentRelease> {
  const existing = await db
    .selectFrom('agent_releases')
    .select('id')
    .where('version', '=', release.version)
    .executeTakeFirst();
  if (existing) throw alreadyHeld(release.version);
  const blob = await store();
  try {
    const saved = await db
      .insertInto('agent_releases')
      .values({ ...release, sha256: blob.sha256, size: blob.size, blob_id: blob.id, created_at: Date.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentRelease(saved);
  } catch (error) {
    await deleteBlob(db, blob.id).catch(() => undefined);
    if (isUniqueViolation(error)) throw alreadyHeld(release.version);
    throw error;
  }
}

/** The blob store's name for an agent release's bundle (the version is a checked ReleaseVersion). */
export const agentBundleName = (version: string) => `rampart-agent-${version}.tar.gz`;

/** An agent release uploaded by the admin, checked against the sha256 they give. */
export const uploadRelease = (db: Kysely<Database>, body: unknown, version: string, sha256: string) =>
  addRelease(db, { version, source: 'upload' }, () =>
    receiveBundle(db, body, { kind: 'agent-bundle', name: agentBundleName(version), sha256 }),
  );

/** Registers the bundle of the agent this master ships (the one install.sh installs) as a release. */
export async function registerBuiltInRelease(db: Kysely<Database>, version: string) {
  const bundle = await agentBundle();
  return addRelease(db, { version, source: 'built-in' }, () =>
    writeBlob(
      db,
      { kind: 'agent-bundle', name: agentBundleName(version), maxBytes: MAX_BUNDLE_BYTES },
      createReadStream(bundle.archive),
    ),
  );
}

function presentUpgrade(
  row: Awaited<ReturnType<typeof findUpgrade>> & object,
  counts: Map<string, number>,
): AgentUpgrade {
  const count = (states: string[]) => states.reduce((sum, state) => sum + (counts.get(state) ?? 0), 0);
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return {
    id: row.id,
    release_id: row.release_id,
    version: row.version,
    state: row.state as AgentUpgrade['state'],
    wave: row.wave,
    wave_percent: row.wave_percent,
    max_failures: row.max_failures,
    progress: {
      total,
      waiting: count(['waiting']),
      running: count(RUNNING),
      done: count(['done']),
      rolled_back: count(['rolled_back']),
      failed: count(['failed', 'timeout', 'cancelled']),
    },
    reason: row.reason,
    created_at: iso(row.created_at),
    finished_at: row.finished_at === null ? null : iso(row.finished_at),
  };
}

const findUpgrade = (db: Kysely<Database>, id: number) =>
  db.selectFrom('agent_upgrades').selectAll().where('id', '=', id).executeTakeFirst();

async function stateCounts(db: Kysely<Database>, ids: number[]) {
  const rows =
    ids.length === 0
      ? []
      : await db
          .selectFrom('agent_commands')
          .select(['ref_id', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
          .where('kind', '=', 'upgrade')
          .where('ref_id', 'in', ids)
          .groupBy(['ref_id', 'state'])
          .execute();
  const byUpgrade = new Map<number, Map<string, number>>();
  for (const row of rows) {
    const counts = byUpgrade.get(row.ref_id) ?? new Map<string, number>();
    counts.set(row.state, Number(row.n));
    byUpgrade.set(row.ref_id, counts);
  }
  return byUpgrade;
}

export async function listUpgrades(db: Kysely<Database>, page: number, limit: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('agent_upgrades')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('agent_upgrades')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const counts = await stateCounts(
    db,
    rows.map((row) => row.id),
  );
  return {
    list: rows.map((row) => presentUpgrade(row, counts.get(row.id) ?? new Map())),
    total: Number(total.n),
  };
}

export async function upgradeLog(
  db: Kysely<Database>,
  id: number,
): Promise<{ upgrade: AgentUpgrade; nodes: UpgradeNodeLog[] }> {
  const row = await findUpgrade(db, id);
  if (!row) throw new AppError('not_found', `id: agent upgrade ${id} does not exist`);
  const counts = await stateCounts(db, [id]);
  const nodes = await commandsOf(db, 'upgrade', id);
  return {
    upgrade: presentUpgrade(row, counts.get(id) ?? new Map()),
    nodes: nodes.map((node) => ({
      node_id: node.node_id,
      name: node.name ?? `#${node.node_id}`,
      wave: node.wave,
      state: node.state as UpgradeNodeLog['state'],
      from_version: node.from_version,
      log: node.log,
      updated_at: iso(node.updated_at),
    })),
  };
}

/** Starts a rollout of a release: every target node waits, then the first wave (one node) is sent. */
export async function startUpgrade(db: Kysely<Database>, bus: CommandBus, body: StartAgentUpgradeBody) {
  const release = await db
    .selectFrom('agent_releases')
    .selectAll()
    .where('id', '=', body.release_id)
    .executeTakeFirst();
  if (!release) throw new AppError('not_found', `release_id: release ${body.release_id} does not exist`);
  const running = await db.selectFrom('agent_upgrades').select('id').where('state', '=', 'running').executeTakeFirst();
  if (running) throw new AppError('conflict', `agent upgrade ${running.id} is still running; cancel it or wait`);
  let nodes = await db
    .selectFrom('nodes')
    .select(['id', 'agent_version'])
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
  if (body.node_ids) {
    const wanted = new Set(body.node_ids);
    const missing = [...wanted].filter((id) => !nodes.some((node) => node.id === id));
    if (missing.length > 0)
      throw new AppError('invalid_param', `node_ids: no enabled node ${missing.slice(0, 5).join(', ')}`);
    nodes = nodes.filter((node) => wanted.has(node.id));
  }
  if (nodes.length === 0) throw new AppError('invalid_param', 'node_ids: there is no enabled node to upgrade');
  const now = Date.now();
  const id = await db
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .insertInto('agent_upgrades')
        .values({
          release_id: release.id,
          version: release.version,
          state: 'running',
          wave: -1,
          wave_percent: body.wave_percent,
          max_failures: body.max_failures,
          node_timeout_s: body.node_timeout_s,
          created_at: now,
          finished_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const payload = { release_id: release.id, version: release.version, sha256: release.sha256, size: release.size };
      await insertCommands(trx, { kind: 'upgrade', refId: row.id, payload, state: 'waiting' }, nodes, now);
      return row.id;
    })
    .catch((error: unknown) => {
      // Another rollout started between the check above and this insert (on this master or another).
      if (isUniqueViolation(error))
        throw new AppError('conflict', 'another agent upgrade has just started; cancel it or wait');
      throw error;
    });
  await advanceUpgrade(db, bus, id);
  return upgradeLog(db, id);
}

/** Stops a running rollout: nodes not sent yet are left as they are; ones already sent finish on their own. */
export async function cancelUpgrade(db: Kysely<Database>, id: number) {
  const now = Date.now();
  const row = await db
    .updateTable('agent_upgrades')
    .set({ state: 'cancelled', reason: 'cancelled by an administrator', finished_at: now })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new AppError('conflict', `id: agent upgrade ${id} is not running`);
  await cancelOpenCommands(db, 'upgrade', id, now);
}

let advancing: Promise<unknown> = Promise.resolve();

/**
 * Moves a rollout on: nodes that did not answer in time count as failed; once the wave in flight has
 * settled, the rollout halts when more nodes failed than it allows, ends when none are left, and
 * otherwise sends the next wave (one node first, then `wave_percent` of the nodes each time).
 */
export function advanceUpgrade(db: Kysely<Database>, bus: CommandBus, id: number, now = Date.now()): Promise<void> {
  // One advance at a time in this master, so a wave's answers arriving together queue here rather
  // than each holding a connection while it waits for the rollout's row (advanceOnce).
  const next = advancing.then(() => advanceOnce(db, bus, id, now));
  advancing = next.catch(() => undefined);
  return next;
}

async function advanceOnce(db: Kysely<Database>, bus: CommandBus, id: number, now: number): Promise<void> {
  const sent = await db.transaction().execute(async (trx) => {
    // Writing the rollout's row first locks it until this transaction ends (SQLite has one writer at
    // a time anyway): another master advancing the same rollout waits here, then reads what this one
    // wrote, so two masters never send the same wave.
    const upgrade = await trx
      .updateTable('agent_upgrades')
      .set((eb) => ({ wave: eb.ref('wave') }))
      .where('id', '=', id)
      .where('state', '=', 'running')
      .returningAll()
      .executeTakeFirst();
    if (!upgrade) return [];
    await trx
      .updateTable('agent_commands')
      .set({ state: 'timeout', log: `no answer within ${upgrade.node_timeout_s} s`, updated_at: now })
      .where('kind', '=', 'upgrade')
      .where('ref_id', '=', id)
      .where('state', 'in', RUNNING)
      .where('updated_at', '<', now - upgrade.node_timeout_s * 1000)
      .execute();
    const counts = (await stateCounts(trx, [id])).get(id) ?? new Map<string, number>();
    const count = (states: string[]) => states.reduce((sum, state) => sum + (counts.get(state) ?? 0), 0);
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    const failures = count(FAILED);
    const finish = async (state: 'done' | 'halted', reason: string) => {
      await trx.updateTable('agent_upgrades').set({ state, reason, finished_at: now }).where('id', '=', id).execute();
      if (state === 'halted') await cancelOpenCommands(trx, 'upgrade', id, now);
      return [];
    };
    if (failures > upgrade.max_failures) {
      return finish('halted', `${failures} nodes failed or rolled back; the rollout allows ${upgrade.max_failures}`);
    }
    if (count(RUNNING) > 0) return [];
    const waiting = await trx
      .selectFrom('agent_commands')
      .select(['id', 'node_id'])
      .where('kind', '=', 'upgrade')
      .where('ref_id', '=', id)
      .where('state', '=', 'waiting')
      .orderBy('node_id')
      .execute();
    if (waiting.length === 0) {
      return finish('done', failures > 0 ? `${failures} nodes kept their previous version` : '');
    }
    const wave = upgrade.wave + 1;
    const size = wave === 0 ? 1 : Math.max(1, Math.ceil((total * upgrade.wave_percent) / 100));
    const sending = waiting.slice(0, size);
    await trx
      .updateTable('agent_commands')
      .set({ state: 'pending', wave, updated_at: now })
      .where(
        'id',
        'in',
        sending.map((entry) => entry.id),
      )
      .where('state', '=', 'waiting')
      .execute();
    await trx.updateTable('agent_upgrades').set({ wave }).where('id', '=', id).execute();
    return sending.map((entry) => entry.node_id);
  });
  if (sent.length > 0) bus.wake(sent);
}

/** Every running rollout moved on (answers time out even when no node calls). */
export async function advanceRunningUpgrades(db: Kysely<Database>, bus: CommandBus) {
  const running = await db.selectFrom('agent_upgrades').select('id').where('state', '=', 'running').execute();
  for (const { id } of running) await advanceUpgrade(db, bus, id);
}

/** The lease of the periodic round that moves rollouts on. */
export const ROLLOUT_LEASE = 'agent-upgrades';

/**
 * The periodic round, run by one master at a time: false (and nothing done) while another master
 * holds the lease. Answers still advance their rollout on whichever master receives them.
 */
export async function advanceRound(
  db: Kysely<Database>,
  bus: CommandBus,
  holder: string,
  leaseMs: number,
  now = Date.now(),
) {
  if (!(await claimLease(db, ROLLOUT_LEASE, holder, now, leaseMs))) return false;
  await advanceRunningUpgrades(db, bus);
  return true;
}
