import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. Certification requests: a person (resident ID number) or a company (unified
// social credit code), pending until an admin approves or rejects them with a reason. Approval also
// sets users.certified (made by the users-admin migration).
export const certify = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('certifications')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('id_number', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('reviewer_id', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('reviewed_at', 'bigint')
        .execute();
      // A user's records newest first, and the admin's review queue by state.
      await db.schema.createIndex('certifications_user').on('certifications').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('certifications_state').on('certifications').columns(['state', 'id']).execute();
      // One request awaiting review per user: two submissions at once cannot both get in.
      await db.schema
        .createIndex('certifications_one_pending')
        .unique()
        .on('certifications')
        .column('user_id')
        .where(sql.ref('state'), '=', 'pending')
        .execute();
    },
  };
};
