import type { ScheduledTask } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, ScheduledTasksTable } from '../../db/schema.ts';

export type ScheduledTaskRow = Selectable<ScheduledTasksTable>;

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

export const presentScheduledTask = (row: ScheduledTaskRow): ScheduledTask => {
  const enabled = Number(row.enabled) === 1;
  const last = row.last_started_at === null ? null : Number(row.last_started_at);
  return {
    name: row.name,
    enabled,
    interval_seconds: Number(row.interval_seconds),
    running: row.running_since !== null,
    last_started_at: iso(row.last_started_at),
    last_finished_at: iso(row.last_finished_at),
    last_result: row.last_result === 'ok' || row.last_result === 'failed' ? row.last_result : null,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms === null ? null : Number(row.last_duration_ms),
    next_run_at: enabled ? iso(last === null ? Date.now() : last + Number(row.interval_seconds) * 1000) : null,
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

/** Marks it running here; false when a run (here or on another master) holds it and is not stale. */
export async function claimScheduledTask(db: Kysely<Database>, name: string, now: number, staleBefore: number) {
  const result = await db
    .updateTable('scheduled_tasks')
    .set({ running_since: now, last_started_at: now })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('running_since', 'is', null), eb('running_since', '<', staleBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function finishScheduledTask(
  db: Kysely<Database>,
  name: string,
  outcome: { startedAt: number; error: string | null },
  now: number,
) {
  await db
    .updateTable('scheduled_tasks')
    .set({
      running_since: null,
      last_finished_at: now,
      last_result: outcome.error === null ? 'ok' : 'failed',
      last_error: outcome.error ?? '',
      last_duration_ms: now - outcome.startedAt,
    })
    .where('name', '=', name)
    .where('running_since', '=', outcome.startedAt)
    .execute();
}
