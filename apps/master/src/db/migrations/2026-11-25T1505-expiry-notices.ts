import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. Which expiry notices were sent: one row per object, expiry time and stage
// (days before it), so a notice goes out once, and a renewed object (a new expiry) starts afresh.
export const expiryNotices = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('expiry_notices')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('object_id', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('days', 'integer', (c) => c.notNull())
      .addColumn('sent_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('expiry_notices_pk', ['kind', 'object_id', 'expires_at', 'days'])
      .execute();
  },
});
