import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Owner } from '../tenancy.ts';

/**
 * The sites a monitor query reads: every site (an admin who names none) or these ids. Logs may live
 * in another database than the sites, so the caller's sites are resolved here first and every log
 * query is scoped by the ids.
 */
export type SiteScope = { kind: 'all' } | { kind: 'sites'; ids: readonly number[] };

export interface ScopeRequest {
  siteId?: number | undefined;
  groupId?: number | undefined;
}

export async function siteScope(
  db: Kysely<Database>,
  owner: Owner,
  { siteId, groupId }: ScopeRequest,
): Promise<SiteScope> {
  const own = owner.kind === 'user';
  if (siteId !== undefined) {
    const site = await db
      .selectFrom('sites')
      .select('id')
      .where('id', '=', siteId)
      .$if(own, (qb) => qb.where('user_id', '=', owner.userId))
      .$if(groupId !== undefined, (qb) => qb.where('group_id', '=', groupId ?? 0))
      .executeTakeFirst();
    if (!site) throw new AppError('not_found', `site_id: site ${siteId} does not exist`);
    return { kind: 'sites', ids: [site.id] };
  }
  if (groupId !== undefined) {
    const group = await db
      .selectFrom('site_groups')
      .select('id')
      .where('id', '=', groupId)
      .$if(own, (qb) => qb.where('user_id', '=', owner.userId))
      .executeTakeFirst();
    if (!group) throw new AppError('not_found', `group_id: site group ${groupId} does not exist`);
    const members = await db
      .selectFrom('sites')
      .select('id')
      .where('group_id', '=', groupId)
      .$if(own, (qb) => qb.where('user_id', '=', owner.userId))
      .execute();
    return { kind: 'sites', ids: members.map((row) => row.id) };
  }
  if (!own) return { kind: 'all' };
  const sites = await db.selectFrom('sites').select('id').where('user_id', '=', owner.userId).execute();
  return { kind: 'sites', ids: sites.map((row) => row.id) };
}
