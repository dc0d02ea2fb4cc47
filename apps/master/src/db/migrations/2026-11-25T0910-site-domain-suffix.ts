import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

/** A domain spelled backwards: the names under a zone then share a prefix, which an index finds. */
const reversed = (domain: string) => [...domain].reverse().join('');

// Frozen once landed. site_domains.reversed holds each domain spelled backwards, indexed, so that
// the names under a wildcard's zone are one index range (byte order: "C" collation on PostgreSQL).
export const siteDomainSuffix = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('site_domains')
      .addColumn('reversed', dialect === 'postgres' ? sql`text collate "C"` : 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    if (dialect === 'postgres') {
      await sql`update site_domains set reversed = reverse(domain)`.execute(db);
    } else {
      await db.transaction().execute(async (trx) => {
        const rows = await sql<{ domain: string }>`select domain from site_domains`.execute(trx);
        for (const { domain } of rows.rows) {
          await sql`update site_domains set reversed = ${reversed(domain)} where domain = ${domain}`.execute(trx);
        }
      });
    }
    await db.schema.createIndex('site_domains_reversed').on('site_domains').columns(['reversed', 'site_id']).execute();
  },
});
