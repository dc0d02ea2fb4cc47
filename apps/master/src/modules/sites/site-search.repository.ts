import { type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { containsPattern, searchGrams, searchNeedle, siteGrams } from './site-search.ts';

/**
 * Postings are counted per gram up to `rare` first, then (when every gram reached it) up to `common`.
 * When even the rarest gram has `common` postings, probing them costs more than reading every domain,
 * so the search reads the domains.
 */
export interface PostingCaps {
  rare: number;
  common: number;
}
export const POSTING_CAPS: PostingCaps = { rare: 500, common: 4000 };
/** Only the rarest grams are intersected: past four, few candidates are left and LIKE checks them as cheaply. */
export const INTERSECTED_GRAMS = 4;
const INSERT_CHUNK = 500;

/** Rewrites a site's postings; called in the transaction that writes its domains. */
export async function writeSiteGrams(db: Kysely<Database>, siteId: number, domains: readonly string[]) {
  await db.deleteFrom('site_grams').where('site_id', '=', siteId).execute();
  const grams = siteGrams(domains);
  for (let start = 0; start < grams.length; start += INSERT_CHUNK) {
    await db
      .insertInto('site_grams')
      .values(grams.slice(start, start + INSERT_CHUNK).map((gram) => ({ gram, site_id: siteId })))
      .execute();
  }
}

/** How a domain substring is searched: a LIKE pattern, and the grams to intersect, rarest first (none: scan). */
export interface DomainSearch {
  pattern: string;
  grams: readonly string[];
}

/** Postings of each gram, counted up to `cap`, in one statement. */
async function postingCounts(db: Kysely<Database>, grams: readonly string[], cap: number): Promise<number[]> {
  const parts = grams.map((gram, index) =>
    db
      .selectFrom(db.selectFrom('site_grams').select('site_id').where('gram', '=', gram).limit(cap).as('postings'))
      .select((eb) => [sql.lit(index).as('gram_index'), eb.fn.countAll<number>().as('n')]),
  );
  const [first, ...rest] = parts;
  if (!first) return [];
  const rows = await rest.reduce((query, part) => query.unionAll(part), first).execute();
  const counts = grams.map(() => 0);
  for (const row of rows) counts[Number(row.gram_index)] = Number(row.n);
  return counts;
}

/** Ranks the term's grams by postings, rarest first; none when the term is short or every gram is common. */
export async function planDomainSearch(
  db: Kysely<Database>,
  term: string,
  caps: PostingCaps = POSTING_CAPS,
): Promise<DomainSearch> {
  const needle = searchNeedle(term);
  const pattern = containsPattern(needle);
  const grams = searchGrams(needle);
  if (grams.length === 0) return { pattern, grams: [] };
  let counts = await postingCounts(db, grams, Math.min(caps.rare, caps.common));
  if (Math.min(...counts) >= caps.rare && caps.common > caps.rare) counts = await postingCounts(db, grams, caps.common);
  const ranked = grams
    .map((gram, index) => ({ gram, postings: counts[index] ?? 0 }))
    .sort((a, b) => a.postings - b.postings);
  if ((ranked[0]?.postings ?? 0) >= caps.common) return { pattern, grams: [] };
  return { pattern, grams: ranked.slice(0, INTERSECTED_GRAMS).map((entry) => entry.gram) };
}

/**
 * Sites with a domain containing the search's needle. With grams: the rarest gram's postings, each
 * probed for the other grams, then the exact LIKE check on the few left; without: LIKE on every domain.
 */
export const matchesDomain = (search: DomainSearch) => (eb: ExpressionBuilder<Database, 'sites'>) => {
  const domains = eb
    .selectFrom('site_domains')
    .select('site_domains.site_id')
    .whereRef('site_domains.site_id', '=', 'sites.id')
    .where(sql<SqlBool>`${sql.ref('site_domains.domain')} like ${search.pattern} escape '\\'`);
  const [driver, ...probes] = search.grams;
  if (driver === undefined) return eb.exists(domains);
  let candidates = eb.selectFrom('site_grams as driver').select('driver.site_id').where('driver.gram', '=', driver);
  for (const gram of probes) {
    candidates = candidates.where((inner) =>
      inner.exists(
        inner
          .selectFrom('site_grams as probe')
          .select('probe.site_id')
          .where('probe.gram', '=', gram)
          .whereRef('probe.site_id', '=', 'driver.site_id'),
      ),
    );
  }
  // An OFFSET keeps PostgreSQL from turning this check into a join that reads every domain: the
  // candidates are few, so each is checked on its own.
  return eb.and([eb('sites.id', 'in', candidates), eb.exists(domains.limit(1).offset(0))]);
};
