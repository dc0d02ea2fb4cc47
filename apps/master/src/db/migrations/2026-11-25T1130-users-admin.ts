import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

/**
 * The text a user search reads: account, email, phone and name, lowercase, one per line. The same
 * as `userSearchKey` in modules/users/users.repository.ts; copied so this migration stays frozen.
 */
const searchKey = (row: { username: string; email: string; phone: string; name: string }) =>
  [row.username, row.email, row.phone, row.name].join('\n').toLowerCase();

const BACKFILL_BATCH = 500;

// Frozen once landed. User groups (a default one for new users; the package groups they may buy
// come with packages), the certified flag, and what the admin's user list searches, filters and
// sorts by, with indexes so that it stays fast at 100k users.
export const usersAdmin = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('user_groups')
        .addColumn('id', idType, id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        // JSON list of package group ids the group's users may buy; NULL until packages exist.
        .addColumn('package_groups', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // The admin who signed in as the session's user (impersonation), or NULL.
      await db.schema.alterTable('sessions').addColumn('impersonator_id', 'bigint').execute();
      await db.schema
        .alterTable('users')
        .addColumn('certified', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('search_key', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      let after = 0;
      for (;;) {
        const rows = (
          await sql<{ id: number; username: string; email: string; phone: string; name: string }>`
            select id, username, email, phone, name from users where id > ${after} order by id limit ${BACKFILL_BATCH}`.execute(
            db,
          )
        ).rows;
        if (rows.length === 0) break;
        for (const row of rows) {
          await sql`update users set search_key = ${searchKey(row)} where id = ${row.id}`.execute(db);
        }
        after = Number(rows[rows.length - 1]?.id);
      }
      // A substring search reads this index alone (narrower than the rows); filters and sorts have theirs.
      await db.schema.createIndex('users_search_key').on('users').column('search_key').execute();
      await db.schema.createIndex('users_group').on('users').columns(['group_id', 'id']).execute();
      await db.schema.createIndex('users_type').on('users').columns(['type', 'id']).execute();
      await db.schema.createIndex('users_status').on('users').columns(['status', 'id']).execute();
      await db.schema.createIndex('users_created').on('users').columns(['created_at', 'id']).execute();
    },
  };
};
