import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Frozen once landed. access_logs.country: the client's country (ISO 3166-1 alpha-2) as the edge
// looked it up in its GeoIP database; '' where it is unknown (and on every line before this).
export const accessCountry = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('access_logs')
      .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
});
