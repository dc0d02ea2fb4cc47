import type { SiteCnameState } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

const COLUMNS = ['id', 'domain', 'is_default', 'note', 'dnsapi_id', 'zone'] as const;

export const listCnameDomains = (db: Kysely<Database>) =>
  db.selectFrom('cname_domains').select(COLUMNS).orderBy('id').execute();

export const findCnameDomain = (db: Kysely<Database>, id: number) =>
  db.selectFrom('cname_domains').select(COLUMNS).where('id', '=', id).executeTakeFirst();

/** The domain new CNAME targets hang under, as a statement or a subquery: the one marked default, else the first. */
export const defaultCnameDomainQuery = (db: Kysely<Database>) =>
  db.selectFrom('cname_domains').select('domain').orderBy('is_default', 'desc').orderBy('id').limit(1);

/** The default line group's id, as a statement or a subquery. */
export const defaultLineGroupQuery = (db: Kysely<Database>) =>
  db.selectFrom('node_groups').select('id').where('is_default', '=', 1).limit(1);

/** The values the two queries above bind, in their order. */
export const CNAME_CONTEXT_VALUES = [1, 1, 1];

/** The domain new CNAME targets hang under: the one marked default, else the first; '' when none is set up. */
export async function defaultCnameDomain(db: Kysely<Database>): Promise<string> {
  const row = await defaultCnameDomainQuery(db).executeTakeFirst();
  return row?.domain ?? '';
}

/** What a site's CNAME target depends on: the default CNAME domain, and whether a default line group exists. */
export interface SiteCname {
  domain: string;
  defaultLineGroup: boolean;
}

export const NO_SITE_CNAME: SiteCname = { domain: '', defaultLineGroup: false };

export async function siteCnameContext(db: Kysely<Database>): Promise<SiteCname> {
  const [domain, group] = await Promise.all([defaultCnameDomain(db), defaultLineGroupQuery(db).executeTakeFirst()]);
  return { domain, defaultLineGroup: group !== undefined };
}

/**
 * Why a site has a CNAME target or not: `ready`; `no_cname_domain` while the operator has set up no
 * CNAME domain (the target is empty); `no_line_group` while the site has no line group of its own
 * and there is no default one, so no edge answers the target yet.
 */
export function cnameState(lineGroupId: number | null, cname: SiteCname): SiteCnameState {
  if (!cname.domain) return 'no_cname_domain';
  if (lineGroupId === null && !cname.defaultLineGroup) return 'no_line_group';
  return 'ready';
}

/** Where a site's domains must point: s<id>.<CNAME domain>. */
export const cnameTarget = (siteId: number, cnameDomain: string) => (cnameDomain ? `s${siteId}.${cnameDomain}` : '');
