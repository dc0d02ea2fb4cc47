import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

/**
 * Fills site_grams from site_domains: every distinct lowercase 3-character substring of each
 * site's domains. The same grams as `siteGrams` in modules/sites/site-search.ts; written in SQL here
 * so this migration stays frozen when that code moves.
 */
export async function backfillSiteGrams(db: Kysely<unknown>) {
  await sql`
    insert into site_grams (gram, site_id)
    with recursive positions (i) as (select 1 union all select i + 1 from positions where i < 253)
    select distinct lower(substr(d.domain, p.i, 3)), d.site_id
    from site_domains d join positions p on p.i <= length(d.domain) - 2
  `.execute(db);
}

// Frozen once landed. Trigram postings of site domains: a substring search reads the postings of
// its rarest grams instead of every domain; site_domains gets a covering index for the searches that
// still read every domain.
export const siteSearch = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('site_grams')
      .addColumn('gram', 'text', (c) => c.notNull())
      .addColumn('site_id', 'bigint', (c) => c.notNull().references('sites.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('site_grams_pkey', ['gram', 'site_id'])
      // SQLite: the primary key is the table, so a posting list is one contiguous range.
      .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
      .execute();
    // Probes (site, gram) and cascaded deletes.
    await db.schema.createIndex('site_grams_site').on('site_grams').columns(['site_id', 'gram']).execute();
    // A search that reads every domain (short or common terms) reads them from this index alone.
    await db.schema.createIndex('site_domains_site_domain').on('site_domains').columns(['site_id', 'domain']).execute();
    await db.schema.dropIndex('site_domains_site').execute();
    await backfillSiteGrams(db);
  },
});
