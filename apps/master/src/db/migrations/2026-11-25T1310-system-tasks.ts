import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. The scheduled tasks of /sys/task (certificate renewal, log retention): whether
// each runs, how often, and how its last run went. And the client address a code was asked from,
// so code sending is limited per address as well as per target.
export const systemTasks = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('scheduled_tasks')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('interval_seconds', 'integer', (c) => c.notNull())
      .addColumn('running_since', 'bigint')
      .addColumn('run_requested_at', 'bigint')
      .addColumn('last_started_at', 'bigint')
      .addColumn('last_finished_at', 'bigint')
      .addColumn('last_result', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('last_duration_ms', 'bigint')
      .execute();
    await db.schema
      .alterTable('verify_codes')
      .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('verify_codes_ip').on('verify_codes').columns(['ip', 'created_at']).execute();
  },
});
