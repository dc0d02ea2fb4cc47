import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. The block log reads only lines protection acted on: partial indexes keep it
// from walking every request (on PostgreSQL they reach every day partition, present and future).
export const blockLog = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('access_logs_blocked_site_time')
      .on('access_logs')
      .columns(['site_id', 'time_ms'])
      .where(sql.ref('block_reason'), '<>', '')
      .execute();
    await db.schema
      .createIndex('access_logs_blocked_time')
      .on('access_logs')
      .column('time_ms')
      .where(sql.ref('block_reason'), '<>', '')
      .execute();
  },
});
