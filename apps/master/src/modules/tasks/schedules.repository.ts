import type { ScheduledTask } from '@rampart/contracts';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database, ScheduledTasksTable } from '../../db/schema.ts';

export type ScheduledTaskRow = Selectable<ScheduledTasksTable>;

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** Whether a run holds the task: started, and its claim not run out. */
export const runHolds = (row: ScheduledTaskRow, now: number) =>
  row.running_since !== null && row.run_expires_at !== null && Number(row.run_expires_at) >= now;

export const presentScheduledTask = (row: ScheduledTaskRow): ScheduledTask => {
  const now = Date.now();
  const enabled = Number(row.enabled) === 1;
  const last = row.last_started_at === null ? null : Number(row.last_started_at);
  const running = runHolds(row, now);
  // A run cut by a master that died never finished: it is due again at once.
  const cut = row.running_since !== null && !running;
  return {
    name: row.name,
    enabled,
    interval_seconds: Number(row.interval_seconds),
    running,
    last_started_at: iso(row.last_started_at),
    last_finished_at: iso(row.last_finished_at),
    last_result: row.last_result === 'ok' || row.last_result === 'failed' ? row.last_result : null,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms === null ? null : Number(row.last_duration_ms),
    next_run_at: enabled ? iso(last === null || cut ? now : last + Number(row.interval_seconds) * 1000) : null,
  };
};

/** A row for every scheduled task, with its default interval, where none is yet. */
export async function ensureScheduledTasks(
  db: Kysely<Database>,
  defaults: readonly { name: string; intervalSeconds: number }[],
) {
  for (const task of defaults) {
    await db
      .insertInto('scheduled_tasks')
      .values({ name: task.name, enabled: 1, interval_seconds: task.intervalSeconds, last_result: '', last_error: '' })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
}

export const listScheduledTasks = (db: Kysely<Database>) =>
  db.selectFrom('scheduled_tasks').selectAll().orderBy('name').execute();

export const findScheduledTask = (db: Kysely<Database>, name: string) =>
  db.selectFrom('scheduled_tasks').selectAll().where('name', '=', name).executeTakeFirst();

export async function updateScheduledTask(
  db: Kysely<Database>,
  name: string,
  change: { enabled?: boolean | undefined; intervalSeconds?: number | undefined },
) {
  await db
    .updateTable('scheduled_tasks')
    .set({
      ...(change.enabled !== undefined && { enabled: change.enabled ? 1 : 0 }),
      ...(change.intervalSeconds !== undefined && { interval_seconds: change.intervalSeconds }),
    })
    .where('name', '=', name)
    .execute();
}

/** One run of a task: the master that claimed it and when it started. */
export interface ScheduledRun {
  holder: string;
  startedAt: number;
}

/**
 * Claims the task for `run` until `expiresAt`; false while another run holds it (its claim has not
 * run out). One statement, so two masters claiming at once cannot both succeed.
 */
export async function claimScheduledTask(db: Kysely<Database>, name: string, run: ScheduledRun, expiresAt: number) {
  const result = await db
    .updateTable('scheduled_tasks')
    .set({
      running_since: run.startedAt,
      last_started_at: run.startedAt,
      run_holder: run.holder,
      run_expires_at: expiresAt,
    })
    .where('name', '=', name)
    .where((eb) =>
      eb.or([
        eb('running_since', 'is', null),
        eb('run_expires_at', 'is', null),
        eb('run_expires_at', '<', run.startedAt),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const ownRun = (name: string, run: ScheduledRun) => (eb: ExpressionBuilder<Database, 'scheduled_tasks'>) =>
  eb.and([eb('name', '=', name), eb('run_holder', '=', run.holder), eb('running_since', '=', run.startedAt)]);

/** Renews the run's claim until `expiresAt` (its heartbeat); false once another master has taken the task over. */
export async function renewScheduledRun(db: Kysely<Database>, name: string, run: ScheduledRun, expiresAt: number) {
  const result = await db
    .updateTable('scheduled_tasks')
    .set({ run_expires_at: expiresAt })
    .where(ownRun(name, run))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records how the run went and lets the task go; nothing when another master took it over meanwhile. */
export async function finishScheduledTask(
  db: Kysely<Database>,
  name: string,
  run: ScheduledRun,
  error: string | null,
  now: number,
) {
  const result = await db
    .updateTable('scheduled_tasks')
    .set({
      running_since: null,
      run_holder: '',
      run_expires_at: null,
      last_finished_at: now,
      last_result: error === null ? 'ok' : 'failed',
      last_error: error ?? '',
      last_duration_ms: now - run.startedAt,
    })
    .where(ownRun(name, run))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
