import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. Line ids for a logs store without its own sequences (ClickHouse): each
// batch takes the next range of its kind's counter in the transaction that claims the batch.
export const logIds = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('log_id_counters')
      .addColumn('kind', 'text', (c) => c.primaryKey())
      .addColumn('next_id', 'bigint', (c) => c.notNull())
      .execute();
    await db
      .insertInto('log_id_counters' as never)
      .values([
        { kind: 'access', next_id: 1 },
        { kind: 'stream', next_id: 1 },
      ] as never)
      .execute();
  },
});
