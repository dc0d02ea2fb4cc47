import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The id of the user's site that serves a domain (itself, or through a one-level wildcard), if any. */
export async function siteServing(db: Kysely<Database>, userId: number, domain: string): Promise<number | undefined> {
  const parent = domain.slice(domain.indexOf('.') + 1);
  const rows = await db
    .selectFrom('site_domains')
    .innerJoin('sites', 'sites.id', 'site_domains.site_id')
    .select(['site_domains.domain', 'sites.id'])
    .where('sites.user_id', '=', userId)
    .where('site_domains.domain', 'in', [domain, `*.${parent}`])
    .execute();
  return (rows.find((row) => row.domain === domain) ?? rows[0])?.id;
}
