import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. In-app messages, which channels each user wants per message type, their
// webhook, the queue of webhook deliveries awaiting a (re)try, and announcements.
export const messages = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const owner = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('messages')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', owner)
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('read_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // A user's list newest first, their unread count (the bell), and the admin's query by type and time.
      await db.schema.createIndex('messages_user').on('messages').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('messages_user_read').on('messages').columns(['user_id', 'is_read', 'id']).execute();
      await db.schema.createIndex('messages_type').on('messages').columns(['type', 'id']).execute();
      await db.schema.createIndex('messages_created').on('messages').column('created_at').execute();

      // Only a user's choices that differ from the defaults have a row.
      await db.schema
        .createTable('message_subscriptions')
        .addColumn('user_id', 'bigint', owner)
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('in_app', 'integer', (c) => c.notNull())
        .addColumn('email', 'integer', (c) => c.notNull())
        .addColumn('sms', 'integer', (c) => c.notNull())
        .addColumn('webhook', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('message_subscriptions_pk', ['user_id', 'type'])
        .execute();
      await db.schema
        .createIndex('message_subscriptions_type')
        .on('message_subscriptions')
        .columns(['type', 'user_id'])
        .execute();

      await db.schema
        .createTable('message_webhooks')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
        // Sealed with the master's secret box: the master signs with it, nobody reads it back.
        .addColumn('secret', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', owner)
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        /** pending (awaiting an attempt), sent, or failed (out of retries) */
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['state', 'next_attempt_at'])
        .execute();

      await db.schema
        .createTable('announcements')
        .addColumn('id', idType, id)
        .addColumn('title_zh', 'text', (c) => c.notNull())
        .addColumn('text_zh', 'text', (c) => c.notNull())
        .addColumn('title_en', 'text', (c) => c.notNull())
        .addColumn('text_en', 'text', (c) => c.notNull())
        .addColumn('starts_at', 'bigint', (c) => c.notNull())
        .addColumn('ends_at', 'bigint', (c) => c.notNull())
        .addColumn('recipients', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('author_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('announcements_ends').on('announcements').columns(['ends_at', 'starts_at']).execute();
    },
  };
};
