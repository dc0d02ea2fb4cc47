import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Frozen once landed. geoip_databases: the .mmdb an admin uploaded for country lookups on the edges
// (one row, id 1; none: the database the master ships), kept in the database so that every master
// sharing it serves the same file to agents.
export const geoip = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('geoip_databases')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('sha256', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('database_type', 'text', (c) => c.notNull())
      .addColumn('built_at', 'bigint', (c) => c.notNull())
      .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
      .addColumn('country_path', 'text', (c) => c.notNull())
      .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .execute();
  },
});
