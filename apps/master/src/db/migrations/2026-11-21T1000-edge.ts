import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. Config tables of the edge: nodes, sites, streams, certs, jobs, config version.
export const edge = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const named = (db: Kysely<unknown>, table: string) =>
    db.schema
      .createTable(table)
      .addColumn('id', idType, id)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('config_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await db
        .insertInto('config_state' as never)
        .values({ id: 1, version: 1 } as never)
        .execute();

      await named(db, 'node_groups').execute();
      await named(db, 'regions').execute();
      await db.schema
        .createTable('pending_nodes')
        .addColumn('id', idType, id)
        .addColumn('hostname', 'text', (c) => c.notNull())
        .addColumn('ips', 'text', (c) => c.notNull())
        .addColumn('agent_version', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('node_id', 'bigint')
        .addColumn('credential', 'text')
        .addColumn('client_ip', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('nodes')
        .addColumn('id', idType, id)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('ips', 'text', (c) => c.notNull())
        .addColumn('group_id', 'bigint')
        .addColumn('region_id', 'bigint')
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('http_port', 'integer', (c) => c.notNull())
        .addColumn('https_port', 'integer', (c) => c.notNull())
        .addColumn('max_cache_size_mb', 'integer', (c) => c.notNull())
        .addColumn('credential_hash', 'text', (c) => c.notNull().unique())
        .addColumn('applied_version', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('last_seen_at', 'bigint')
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('dropped_log_lines', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('agent_version', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('node_apply_errors')
        .addColumn('node_id', 'bigint', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('object_id', 'bigint', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('node_apply_errors_node').on('node_apply_errors').column('node_id').execute();
      await db.schema
        .createIndex('node_apply_errors_object')
        .on('node_apply_errors')
        .columns(['kind', 'object_id'])
        .execute();

      for (const table of ['site_groups', 'stream_groups']) {
        await db.schema
          .createTable(table)
          .addColumn('id', idType, id)
          .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex(`${table}_user`).on(table).column('user_id').execute();
      }

      await db.schema
        .createTable('certs')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('cert_pem', 'text', (c) => c.notNull())
        .addColumn('key_pem', 'text', (c) => c.notNull())
        .addColumn('names', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('not_before', 'bigint', (c) => c.notNull())
        .addColumn('not_after', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('certs_user').on('certs').column('user_id').execute();

      await db.schema
        .createTable('sites')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('group_id', 'bigint')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('primary_domain', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('https', 'integer', (c) => c.notNull())
        .addColumn('cert_id', 'bigint')
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sites_user_id').on('sites').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('sites_user_group').on('sites').columns(['user_id', 'group_id', 'id']).execute();
      await db.schema.createIndex('sites_primary_domain').on('sites').column('primary_domain').execute();
      await db.schema.createIndex('sites_cert').on('sites').column('cert_id').execute();
      await db.schema
        .createTable('site_domains')
        .addColumn('domain', 'text', (c) => c.primaryKey())
        .addColumn('site_id', 'bigint', (c) => c.notNull().references('sites.id').onDelete('cascade'))
        .execute();
      await db.schema.createIndex('site_domains_site').on('site_domains').column('site_id').execute();

      await db.schema
        .createTable('streams')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('group_id', 'bigint')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('listen_port', 'integer', (c) => c.notNull())
        .addColumn('protocol', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('streams_port', ['protocol', 'listen_port'])
        .execute();
      await db.schema.createIndex('streams_user_id').on('streams').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('site_id', 'bigint', (c) => c.notNull())
        .addColumn('urls', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_user').on('jobs').columns(['user_id', 'id']).execute();
      await db.schema
        .createTable('job_nodes')
        .addColumn('job_id', 'bigint', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('node_id', 'bigint', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_nodes_pk', ['job_id', 'node_id'])
        .execute();
      await db.schema.createIndex('job_nodes_pending').on('job_nodes').columns(['node_id', 'state']).execute();
    },
  };
};
