import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. Every owner reference gets a foreign key to users: CC matches, filters and rule
// groups (whose system rows, user 0 until now, hold NULL: no user owns them) and ACLs. Rows whose
// owner does not exist are deleted first: nobody can see or use them (tenancy reads by owner), they
// only came from calls that named a user who never existed, and they would make the keys fail.

const OWNED = ['cc_matches', 'cc_filters', 'cc_rule_groups', 'acls'] as const;
/** The tables where user 0 meant a system row. */
const SYSTEM_ROWS = ['cc_matches', 'cc_filters', 'cc_rule_groups'] as const;

const orphan = (table: string) =>
  sql.raw(`${table}.user_id <> 0 and not exists (select 1 from users where users.id = ${table}.user_id)`);

/** Deletes rows of owners that do not exist, with the rule lines that point at them. */
async function deleteOrphans(db: Kysely<unknown>) {
  await sql`delete from cc_rule_lines where group_id in (select id from cc_rule_groups where ${orphan('cc_rule_groups')})`.execute(
    db,
  );
  // A group only uses its owner's rows and system rows, so these lines belonged to orphans too.
  await sql`delete from cc_rule_lines
    where match_id in (select id from cc_matches where ${orphan('cc_matches')})
       or filter_id in (select id from cc_filters where ${orphan('cc_filters')})`.execute(db);
  for (const table of OWNED) await sql`delete from ${sql.table(table)} where ${orphan(table)}`.execute(db);
}

type Builder = CreateTableBuilder<string, never>;

/** The tables as the protection migration made them, with the owner now a nullable foreign key. */
function ownedTables(dialect: Dialect): Record<(typeof OWNED)[number], (table: Builder) => Builder> {
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const owner = (c: ColumnDefinitionBuilder) => c.references('users.id').onDelete('cascade');
  const times = (table: Builder) =>
    table.addColumn('created_at', 'bigint', (c) => c.notNull()).addColumn('updated_at', 'bigint', (c) => c.notNull());
  const start = (table: Builder) =>
    table
      .addColumn('id', 'integer', id)
      .addColumn('user_id', 'bigint', owner)
      .addColumn('name', 'text', (c) => c.notNull());
  return {
    cc_matches: (table) => times(start(table).addColumn('conditions', 'text', (c) => c.notNull())),
    cc_filters: (table) =>
      times(
        start(table)
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('settings', 'text', (c) => c.notNull()),
      ),
    cc_rule_groups: (table) => times(start(table).addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))),
    acls: (table) =>
      times(
        table
          .addColumn('id', 'integer', id)
          .addColumn('site_id', 'bigint', (c) => c.notNull().unique().references('sites.id').onDelete('cascade'))
          .addColumn('user_id', 'bigint', (c) => owner(c).notNull())
          .addColumn('entries', 'text', (c) => c.notNull()),
      ),
  };
}

const COLUMNS: Record<(typeof OWNED)[number], string> = {
  cc_matches: 'id, user_id, name, conditions, created_at, updated_at',
  cc_filters: 'id, user_id, name, type, settings, created_at, updated_at',
  cc_rule_groups: 'id, user_id, name, is_default, created_at, updated_at',
  acls: 'id, site_id, user_id, entries, created_at, updated_at',
};

/**
 * SQLite cannot add a foreign key to a table: each is built anew, filled, and put in place of the
 * old one (https://sqlite.org/lang_altertable.html#otheralter), with foreign keys off meanwhile so
 * that dropping a table that rule lines point at deletes nothing; the check at the end proves them.
 */
async function rebuildOnSqlite(db: Kysely<unknown>) {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await deleteOrphans(trx);
      const tables = ownedTables('sqlite');
      for (const table of OWNED) {
        const next = `${table}_next`;
        await tables[table](trx.schema.createTable(next) as unknown as Builder).execute();
        const columns = sql.raw(COLUMNS[table]);
        const select = sql.raw(COLUMNS[table].replace('user_id', table === 'acls' ? 'user_id' : 'nullif(user_id, 0)'));
        await sql`insert into ${sql.table(next)} (${columns}) select ${select} from ${sql.table(table)}`.execute(trx);
        // Ids of deleted rows are not handed out again: the counter moves over with the table.
        const counter = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(trx);
        await trx.schema.dropTable(table).execute();
        await trx.schema.alterTable(next).renameTo(table).execute();
        const seq = counter.rows[0]?.seq;
        if (seq !== undefined) await sql`update sqlite_sequence set seq = ${seq} where name = ${table}`.execute(trx);
        await trx.schema.createIndex(`${table}_user`).on(table).columns(['user_id', 'id']).execute();
      }
      const broken = await sql<{ table: string }>`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error(`foreign keys broken in ${broken.rows.map((row) => row.table)}`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function addKeysOnPostgres(db: Kysely<unknown>) {
  await deleteOrphans(db);
  for (const table of SYSTEM_ROWS) {
    await db.schema
      .alterTable(table)
      .alterColumn('user_id', (c) => c.dropNotNull())
      .execute();
    await sql`update ${sql.table(table)} set user_id = null where user_id = 0`.execute(db);
  }
  // A user's lines, matches and filters all go with the user. PostgreSQL checks a line's keys when the
  // cascade reaches its match, before the cascade through its group took the line: check at commit.
  for (const column of ['match_id', 'filter_id']) {
    await sql`alter table cc_rule_lines alter constraint ${sql.raw(`cc_rule_lines_${column}_fkey`)} deferrable initially deferred`.execute(
      db,
    );
  }
  for (const table of OWNED) {
    await db.schema
      .alterTable(table)
      .addForeignKeyConstraint(`${table}_user_fk`, ['user_id'], 'users', ['id'], (c) => c.onDelete('cascade'))
      .execute();
  }
}

export const ownerKeys = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect === 'sqlite') await rebuildOnSqlite(db);
    else await addKeysOnPostgres(db);
  },
});
