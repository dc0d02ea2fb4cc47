import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. Background duties hand over between masters. scheduled_tasks.run_holder: the
// master running the task ('' when none); run_expires_at: until when its claim holds (that master
// renews it while the run goes on; a claim left to run out belongs to a master that died, and
// another master runs the task again). tasks.runner: the runner that claimed a running durable task, so a
// runner that lost its claim cannot write over the one that took the task over.
export const backgroundLeases = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('scheduled_tasks')
      .addColumn('run_holder', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.alterTable('scheduled_tasks').addColumn('run_expires_at', 'bigint').execute();
    await db.schema
      .alterTable('tasks')
      .addColumn('runner', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
});
