import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. The operation log (every successful write through /v1), API keys (one live
// key per user; rotated and deleted keys stay as revoked rows, which the creation limit counts), and
// the user agent and method of each sign-in attempt for the login log.
export const accountLogs = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('op_logs')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('impersonator_id', 'bigint')
        .addColumn('auth_method', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text')
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_ids', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('changes', 'text', (c) => c.notNull().defaultTo('null'))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // Newest-first pages of one user, one action or one address, and the time range and retention.
      await db.schema.createIndex('op_logs_user').on('op_logs').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('op_logs_action').on('op_logs').columns(['action', 'id']).execute();
      await db.schema.createIndex('op_logs_ip').on('op_logs').columns(['ip', 'id']).execute();
      await db.schema.createIndex('op_logs_created').on('op_logs').column('created_at').execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key_id', 'text', (c) => c.notNull().unique())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('allow_ips', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .addColumn('last_used_ip', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'created_at']).execute();
      await db.schema
        .createIndex('api_keys_one_live')
        .unique()
        .on('api_keys')
        .column('user_id')
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();

      await db.schema
        .alterTable('login_attempts')
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('login_attempts')
        .addColumn('method', 'text', (c) => c.notNull().defaultTo('password'))
        .execute();
      await db.schema.createIndex('login_attempts_user').on('login_attempts').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('login_attempts_created').on('login_attempts').column('created_at').execute();
    },
  };
};
