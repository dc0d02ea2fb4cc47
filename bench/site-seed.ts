import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../apps/master/src/db/database.ts';
import { backfillSiteGrams } from '../apps/master/src/db/migrations/2026-11-22T1000-site-search.ts';
import type { Database } from '../apps/master/src/db/schema.ts';
import { reversedDomain } from '../apps/master/src/modules/sites/site-claims.ts';
import { DEFAULT_SITE_SETTINGS } from '../apps/master/src/modules/sites/site-rules.ts';

const CHUNK = 500;

export const benchDomain = (i: number) => `s${i}.bench.example.com`;

/**
 * `count` sites for one user, written in bulk (5 groups, every 7th disabled, every 3rd on HTTPS,
 * domain s<i>.bench.example.com), then the search postings rebuilt as the migration builds them and
 * the planner's statistics refreshed. For a fresh database: it rebuilds every site's postings.
 */
export async function seedSites(db: Kysely<Database>, dialect: Dialect, userId: number, count: number) {
  const now = Date.now();
  const groups: number[] = [];
  for (let g = 1; g <= 5; g++) {
    const row = await db
      .insertInto('site_groups')
      .values({ user_id: userId, name: `g${g}`, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    groups.push(row.id);
  }
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += CHUNK) {
      const indexes = Array.from({ length: Math.min(CHUNK, count - start) }, (_, k) => start + k);
      const rows = await trx
        .insertInto('sites')
        .values(
          indexes.map((i) => ({
            user_id: userId,
            group_id: groups[i % 5] ?? null,
            name: benchDomain(i),
            primary_domain: benchDomain(i),
            settings: JSON.stringify({
              ...DEFAULT_SITE_SETTINGS,
              domains: [benchDomain(i)],
              origins: [{ address: '127.0.0.1', port: 9000, weight: 1, backup: false }],
            }),
            enabled: i % 7 === 0 ? 0 : 1,
            https: i % 3 === 0 ? 1 : 0,
            cert_id: null,
            version: 1,
            created_at: now,
            updated_at: now + i,
          })),
        )
        .returning(['id', 'primary_domain'])
        .execute();
      await trx
        .insertInto('site_domains')
        .values(
          rows.map((row) => ({
            domain: row.primary_domain,
            site_id: row.id,
            reversed: reversedDomain(row.primary_domain),
          })),
        )
        .execute();
    }
  });
  await db.deleteFrom('site_grams').execute();
  await backfillSiteGrams(db as unknown as Kysely<unknown>);
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
  return { groups };
}
