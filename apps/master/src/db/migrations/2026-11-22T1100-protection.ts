import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. Protection: CC matches, filters and rule groups (user 0: system rows), the
// lines of a group (foreign keys keep a used match or filter from going), per-site ACLs, and bans
// (manual ones and those edges report through their block logs).
export const protection = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const owned = (db: Kysely<unknown>, table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', idType, id)
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull());
  return {
    async up(db: Kysely<unknown>) {
      await owned(db, 'cc_matches')
        .addColumn('conditions', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cc_matches_user').on('cc_matches').columns(['user_id', 'id']).execute();

      await owned(db, 'cc_filters')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cc_filters_user').on('cc_filters').columns(['user_id', 'id']).execute();

      await owned(db, 'cc_rule_groups')
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('cc_rule_groups_user').on('cc_rule_groups').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('cc_rule_lines')
        .addColumn('group_id', 'bigint', (c) => c.notNull().references('cc_rule_groups.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('match_id', 'bigint', (c) => c.notNull().references('cc_matches.id'))
        .addColumn('filter_id', 'bigint', (c) => c.notNull().references('cc_filters.id'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('ban_seconds', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('cc_rule_lines_pkey', ['group_id', 'position'])
        .execute();
      await db.schema.createIndex('cc_rule_lines_match').on('cc_rule_lines').column('match_id').execute();
      await db.schema.createIndex('cc_rule_lines_filter').on('cc_rule_lines').column('filter_id').execute();

      await db.schema
        .createTable('acls')
        .addColumn('id', idType, id)
        .addColumn('site_id', 'bigint', (c) => c.notNull().unique().references('sites.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('entries', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('acls_user').on('acls').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('bans')
        .addColumn('id', idType, id)
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('site_id', 'bigint', (c) => c.notNull())
        .addColumn('cidr', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('node_id', 'bigint')
        .addColumn('group_id', 'bigint', (c) => c.notNull())
        .addColumn('match_id', 'bigint', (c) => c.notNull())
        .addColumn('filter_id', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('lifted_at', 'bigint')
        .execute();
      await db.schema.createIndex('bans_site_expiry').on('bans').columns(['site_id', 'expires_at']).execute();
      await db.schema.createIndex('bans_expiry').on('bans').column('expires_at').execute();
      await db.schema.createIndex('bans_lifted').on('bans').column('lifted_at').execute();
      // An edge ban seen again (a log batch sent twice) is the same ban.
      await db.schema
        .createIndex('bans_edge_seen')
        .on('bans')
        .columns(['node_id', 'site_id', 'cidr', 'created_at'])
        .unique()
        .execute();
    },
  };
};
