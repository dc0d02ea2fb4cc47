import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

/**
 * The words a user is found by: account, email, its domain, phone with and without +, name and each
 * word of it, lowercase. The same as `userSearchTerms` in modules/users/user-search.ts; copied so
 * this migration stays frozen.
 */
function searchTerms(row: { username: string; email: string; phone: string; name: string }): string[] {
  const terms = new Set<string>();
  const add = (value: string) => {
    const term = value.trim().toLowerCase().slice(0, 64);
    if (term) terms.add(term);
  };
  add(row.username);
  add(row.email);
  add(row.email.split('@')[1] ?? '');
  add(row.phone);
  add(row.phone.replace(/^\+/, ''));
  add(row.name);
  for (const word of row.name.split(/\s+/)) add(word);
  return [...terms];
}

const BACKFILL_BATCH = 500;

// Frozen once landed. A substring scan of 100k users costs tens of milliseconds on an idle core and
// far more on a busy one; word prefixes in an index answer in about one. The scan's index goes, and
// so do the indexes of two-valued columns.
export const userSearchTerms = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_search_terms')
      // Byte order on PostgreSQL too, so that a prefix is one range of the primary key.
      .addColumn('term', 'text', (c) =>
        dialect === 'postgres' ? c.notNull().modifyEnd(sql`collate "C"`) : c.notNull(),
      )
      .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_search_terms_pkey', ['term', 'user_id'])
      .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
      .execute();
    await db.schema
      .createIndex('user_search_terms_user')
      .on('user_search_terms')
      .columns(['user_id', 'term'])
      .execute();
    await db.schema.dropIndex('users_search_key').execute();
    // Type and state have two values each: without statistics SQLite took them for selective and
    // sorted most of the users for a filtered page, where walking the sort order finds it at once.
    await db.schema.dropIndex('users_type').execute();
    await db.schema.dropIndex('users_status').execute();
    let after = 0;
    for (;;) {
      const rows = (
        await sql<{ id: number; username: string; email: string; phone: string; name: string }>`
          select id, username, email, phone, name from users where id > ${after} order by id limit ${BACKFILL_BATCH}`.execute(
          db,
        )
      ).rows;
      if (rows.length === 0) break;
      const values = rows.flatMap((row) => searchTerms(row).map((term) => ({ term, user_id: row.id })));
      if (values.length > 0)
        await db
          .insertInto('user_search_terms' as never)
          .values(values as never)
          .execute();
      after = Number(rows[rows.length - 1]?.id);
    }
  },
});
