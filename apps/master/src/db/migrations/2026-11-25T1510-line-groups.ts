import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. DNS lines, line groups' CNAME hosts and per-line records, the DNS API account
// and zone each CNAME domain is published through, node maintenance, and a site's chosen line group.
export const lineGroups = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('lines')
        .addColumn('id', idType, id)
        // '' for a line every provider has (the default line), else the provider that names it.
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name_zh', 'text', (c) => c.notNull())
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('lines_provider_code', ['provider', 'code'])
        .execute();
      await db
        .insertInto('lines' as never)
        .values({ provider: '', code: 'default', name_zh: '默认', name_en: 'Default', created_at: Date.now() } as never)
        .execute();
      await db.schema
        .alterTable('node_groups')
        .addColumn('cname_domain_id', 'bigint', (c) => c.references('cname_domains.id').onDelete('set null'))
        .execute();
      await db.schema
        .alterTable('node_groups')
        .addColumn('host', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('node_groups')
        .addColumn('backup_group_id', 'bigint', (c) => c.references('node_groups.id').onDelete('set null'))
        .execute();
      await db.schema
        .alterTable('node_groups')
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('node_groups')
        .addColumn('publish_error', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('node_groups').addColumn('published_at', 'bigint').execute();
      await db.schema
        .createTable('line_group_records')
        .addColumn('id', idType, id)
        .addColumn('group_id', 'bigint', (c) => c.notNull().references('node_groups.id').onDelete('cascade'))
        .addColumn('line_id', 'bigint', (c) => c.notNull().references('lines.id').onDelete('cascade'))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('weight', 'integer', (c) => c.notNull())
        // 1: used only when every primary IP of the line is down.
        .addColumn('backup', 'integer', (c) => c.notNull())
        .addUniqueConstraint('line_group_records_unique', ['group_id', 'line_id', 'ip', 'backup'])
        .execute();
      await db.schema
        .alterTable('cname_domains')
        .addColumn('dnsapi_id', 'bigint', (c) => c.references('dnsapis.id').onDelete('set null'))
        .execute();
      await db.schema
        .alterTable('cname_domains')
        .addColumn('zone', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('nodes')
        .addColumn('maintenance', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('sites')
        .addColumn('line_group_id', 'bigint', (c) => c.references('node_groups.id').onDelete('set null'))
        .execute();
    },
  };
};
