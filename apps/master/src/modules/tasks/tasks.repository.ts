import type { Task, TaskState } from '@rampart/contracts';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { newestFirstPage } from '../../db/paging.ts';
import type { Database, TasksTable } from '../../db/schema.ts';
import { takeTurn } from '../cluster/leases.ts';

export type TaskRow = Selectable<TasksTable>;

export const presentTask = (row: TaskRow): Task => ({
  id: row.id,
  kind: row.kind,
  user_id: row.user_id,
  target_id: row.target_id,
  state: row.state as TaskState,
  progress: row.progress,
  error: row.error,
  attempts: row.attempts,
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
  finished_at: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
});

export interface NewTask {
  kind: string;
  userId: number;
  targetId: number | null;
  /** Names no two running tasks may share (for certificates: the domains). */
  lockKeys: readonly string[];
}

export async function insertTask(db: Kysely<Database>, task: NewTask, now: number): Promise<number> {
  const row = await db
    .insertInto('tasks')
    .values({
      kind: task.kind,
      user_id: task.userId,
      target_id: task.targetId,
      lock_keys: JSON.stringify(task.lockKeys),
      state: 'queued',
      progress: 'queued',
      error: '',
      attempts: 0,
      heartbeat_at: null,
      created_at: now,
      updated_at: now,
      finished_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const findTask = (db: Kysely<Database>, id: number) =>
  db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();

export const queuedTasks = (db: Kysely<Database>, limit: number) =>
  db.selectFrom('tasks').selectAll().where('state', '=', 'queued').orderBy('id').limit(limit).execute();

/** One runner's hold on a running task. */
export interface TaskClaim {
  id: number;
  runner: string;
}

// Claims take turns on this name across masters (see takeTurn).
const TASK_CLAIMS = 'task-claims';

const sharesKey = (keys: readonly string[], lockKeys: string) =>
  (JSON.parse(lockKeys) as string[]).some((key) => keys.includes(key));

/**
 * Takes a queued task for `runner`; false when another runner (this master's or another's) took it
 * first, or runs a task that shares one of its lock keys. Claims take turns across masters, so two
 * tasks sharing a key are never both claimed.
 */
export async function claimTask(
  db: Kysely<Database>,
  task: { id: number; lock_keys: string },
  runner: string,
  now: number,
): Promise<boolean> {
  const keys = JSON.parse(task.lock_keys) as string[];
  return db.transaction().execute(async (trx) => {
    await takeTurn(trx, TASK_CLAIMS);
    if (keys.length > 0) {
      const running = await trx.selectFrom('tasks').select('lock_keys').where('state', '=', 'running').execute();
      if (running.some((row) => sharesKey(keys, row.lock_keys))) return false;
    }
    const result = await trx
      .updateTable('tasks')
      .set((eb) => ({
        state: 'running',
        runner,
        attempts: eb('attempts', '+', 1),
        heartbeat_at: now,
        updated_at: now,
      }))
      .where('id', '=', task.id)
      .where('state', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  });
}

const held = (claim: TaskClaim) => (eb: ExpressionBuilder<Database, 'tasks'>) =>
  eb.and([eb('id', '=', claim.id), eb('state', '=', 'running'), eb('runner', '=', claim.runner)]);

/** Records the step; false when the runner no longer holds the task (another master took it over). */
export async function setTaskProgress(db: Kysely<Database>, claim: TaskClaim, progress: string, now: number) {
  const result = await db
    .updateTable('tasks')
    .set({ progress, heartbeat_at: now, updated_at: now })
    .where(held(claim))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function heartbeat(db: Kysely<Database>, runner: string, ids: readonly number[], now: number) {
  if (ids.length === 0) return;
  await db
    .updateTable('tasks')
    .set({ heartbeat_at: now })
    .where('id', 'in', ids)
    .where('state', '=', 'running')
    .where('runner', '=', runner)
    .execute();
}

const settled = (outcome: { state: 'done' | 'failed' | 'queued'; error?: string }, now: number) => ({
  state: outcome.state,
  runner: '',
  error: outcome.error ?? '',
  heartbeat_at: null,
  updated_at: now,
  finished_at: outcome.state === 'queued' ? null : now,
  ...(outcome.state === 'queued' && { progress: 'queued' }),
});

/** Ends the runner's hold on the task with its outcome; nothing when another runner holds it now. */
export async function settleTask(
  db: Kysely<Database>,
  claim: TaskClaim,
  outcome: { state: 'done' | 'failed' | 'queued'; error?: string },
  now: number,
) {
  await db.updateTable('tasks').set(settled(outcome, now)).where(held(claim)).execute();
}

/**
 * Running tasks whose runner stopped beating (a master that died or restarted): queued again while
 * attempts remain, failed otherwise. Each is settled only while it is still stale, so a task another
 * master recovered and claimed meanwhile is left to it.
 */
export async function recoverStaleTasks(db: Kysely<Database>, staleBefore: number, maxAttempts: number, now: number) {
  const isStale = (eb: ExpressionBuilder<Database, 'tasks'>) =>
    eb.and([
      eb('state', '=', 'running'),
      eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', staleBefore)]),
    ]);
  const stale = await db.selectFrom('tasks').select(['id', 'attempts']).where(isStale).execute();
  for (const task of stale) {
    const error = `the master stopped while the task ran, ${task.attempts} times; retry it when the cause is fixed`;
    const outcome = task.attempts < maxAttempts ? { state: 'queued' as const } : { state: 'failed' as const, error };
    await db.updateTable('tasks').set(settled(outcome, now)).where('id', '=', task.id).where(isStale).execute();
  }
  return stale.length;
}

export async function listTasks(
  db: Kysely<Database>,
  filter: { state?: TaskState; kind?: string },
  page: number,
  limit: number,
) {
  const scoped = db
    .selectFrom('tasks')
    .$if(filter.state !== undefined, (qb) => qb.where('state', '=', filter.state as string))
    .$if(filter.kind !== undefined, (qb) => qb.where('kind', '=', filter.kind as string));
  const { rows, total } = await newestFirstPage(scoped, page, limit);
  return { list: rows.map(presentTask), total };
}

/** A queued or running task on the same object, if any. */
export const activeTaskFor = (db: Kysely<Database>, kind: string, targetId: number) =>
  db
    .selectFrom('tasks')
    .selectAll()
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();

/** The newest task on the same object: only that one may be retried. */
export const latestTaskFor = (db: Kysely<Database>, kind: string, targetId: number) =>
  db
    .selectFrom('tasks')
    .selectAll()
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .orderBy('id', 'desc')
    .executeTakeFirst();

export async function requeueTask(db: Kysely<Database>, id: number, now: number) {
  await db
    .updateTable('tasks')
    .set({
      state: 'queued',
      progress: 'queued',
      error: '',
      attempts: 0,
      heartbeat_at: null,
      updated_at: now,
      finished_at: null,
    })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .execute();
}
