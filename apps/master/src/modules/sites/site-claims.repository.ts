import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { coveringWildcards, reversedDomain, wildcardZone } from './site-claims.ts';

export interface ClaimConflict {
  /** The domain asked for. */
  claimed: string;
  /** Another user's domain it overlaps. */
  held: string;
  /** `covered`: a wildcard of another user covers the claimed name; `covers`: the claimed wildcard covers theirs. */
  kind: 'covered' | 'covers';
}

/**
 * Where claiming `domains` for `userId` overlaps other users' domains through a wildcard, either
 * way. Index lookups only: the covering wildcards by primary key, the names under a wildcard's zone
 * as one range of the reversed-domain index.
 */
export async function claimConflicts(
  db: Kysely<Database>,
  userId: number,
  domains: readonly string[],
): Promise<ClaimConflict[]> {
  const conflicts: ClaimConflict[] = [];
  const covering = new Map<string, string>();
  for (const domain of domains) for (const wildcard of coveringWildcards(domain)) covering.set(wildcard, domain);
  if (covering.size > 0) {
    const held = await db
      .selectFrom('site_domains')
      .innerJoin('sites', 'sites.id', 'site_domains.site_id')
      .select('site_domains.domain')
      .where('site_domains.domain', 'in', [...covering.keys()])
      .where('sites.user_id', '!=', userId)
      .execute();
    for (const row of held)
      conflicts.push({ claimed: covering.get(row.domain) ?? '', held: row.domain, kind: 'covered' });
  }
  for (const domain of domains) {
    const zone = wildcardZone(domain);
    if (!zone) continue;
    // Names under the zone, spelled backwards, start with the zone spelled backwards and a dot.
    const from = reversedDomain(`.${zone}`);
    const to = `${from.slice(0, -1)}/`;
    const held = await db
      .selectFrom('site_domains')
      .innerJoin('sites', 'sites.id', 'site_domains.site_id')
      .select('site_domains.domain')
      .where('site_domains.reversed', '>=', from)
      .where('site_domains.reversed', '<', to)
      .where('sites.user_id', '!=', userId)
      .limit(1)
      .execute();
    for (const row of held) conflicts.push({ claimed: domain, held: row.domain, kind: 'covers' });
  }
  return conflicts;
}
