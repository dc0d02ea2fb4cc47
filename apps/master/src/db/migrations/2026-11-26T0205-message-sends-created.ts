import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. The log-retention task deletes message-send log rows older than the
// retention, oldest first: without an index on their time, a round with nothing to delete read the
// whole table.
export const messageSendsCreated = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('message_sends_created').on('message_sends').columns(['created_at']).execute();
  },
});
