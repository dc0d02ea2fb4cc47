import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. Two-factor sign-in: one TOTP secret per user (sealed; `enabled_at` NULL while
// it awaits the confirming code; `last_step` refuses a code used once), its one-time recovery codes
// (hashed), and the sign-ins whose password was proven and whose second factor is awaited.
export const twoFactor = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const owner = (c: ColumnDefinitionBuilder) => c.notNull().references('users.id').onDelete('cascade');
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('two_factor')
        .addColumn('user_id', 'bigint', (c) => owner(c).primaryKey())
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('enabled_at', 'bigint')
        .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('two_factor_recovery_codes')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', owner)
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('two_factor_recovery_codes_user')
        .on('two_factor_recovery_codes')
        .columns(['user_id', 'code_hash'])
        .execute();
      await db.schema
        .createTable('two_factor_challenges')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', owner)
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('two_factor_challenges_user_ip')
        .on('two_factor_challenges')
        .columns(['user_id', 'ip'])
        .execute();
    },
  };
};
