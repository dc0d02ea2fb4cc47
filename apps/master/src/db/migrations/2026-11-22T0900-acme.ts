import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. ACME issuance: durable background tasks, one ACME account per directory
// (key sealed, see secrets.ts), HTTP-01 challenges the edges answer, and issuance fields on certs.
export const acme = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tasks')
        .addColumn('id', idType, id)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('target_id', 'bigint')
        .addColumn('lock_keys', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('progress', 'text', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('heartbeat_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('tasks_state').on('tasks').columns(['state', 'id']).execute();
      await db.schema.createIndex('tasks_target').on('tasks').columns(['kind', 'target_id']).execute();

      await db.schema
        .createTable('acme_accounts')
        .addColumn('id', idType, id)
        .addColumn('directory_url', 'text', (c) => c.notNull().unique())
        .addColumn('account_key', 'text', (c) => c.notNull())
        .addColumn('account_url', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('acme_challenges')
        .addColumn('token', 'text', (c) => c.primaryKey())
        .addColumn('key_authorization', 'text', (c) => c.notNull())
        .addColumn('task_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('acme_challenges_task').on('acme_challenges').column('task_id').execute();

      // SQLite adds one column per statement.
      const addToCerts = (name: string, type: 'text' | 'bigint', build = (c: ColumnDefinitionBuilder) => c) =>
        db.schema.alterTable('certs').addColumn(name, type, build).execute();
      await addToCerts('source', 'text', (c) => c.notNull().defaultTo('upload'));
      await addToCerts('domains', 'text', (c) => c.notNull().defaultTo('[]'));
      await addToCerts('challenge', 'text');
      await addToCerts('dnsapi_id', 'bigint');
      await addToCerts('task_id', 'bigint');
      await addToCerts('renew_at', 'bigint');
      await db.schema.createIndex('certs_renew').on('certs').columns(['source', 'renew_at']).execute();
      await db.schema.createIndex('certs_dnsapi').on('certs').column('dnsapi_id').execute();
    },
  };
};
