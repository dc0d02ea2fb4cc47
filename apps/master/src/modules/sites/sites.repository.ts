import {
  DEFAULT_SITE_HEALTH_CHECK,
  DEFAULT_SITE_HOTLINK,
  DEFAULT_SITE_PROTECTION,
  DEFAULT_SITE_REDIRECTS,
  DEFAULT_SITE_URL_AUTH,
  type Site,
  type SiteSettings,
} from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SitesTable } from '../../db/schema.ts';
import { cnameState, cnameTarget, NO_SITE_CNAME, type SiteCname } from '../cname/cname.repository.ts';
import type { Owner } from '../tenancy.ts';
import { ensureRequiredDomainProofs } from './domain-proofs.repository.ts';
import { reversedDomain } from './site-claims.ts';
import { writeSiteGrams } from './site-search.repository.ts';

export type SiteRow = Selectable<SitesTable>;

/** A site's settings as presented: the parts saved before they existed read as their defaults. */
export const presentedSettings = (settings: SiteSettings): SiteSettings => ({
  // Sites saved before protection existed have none stored.
  protection: DEFAULT_SITE_PROTECTION,
  // And hotlink protection: off; and no error pages of its own (the fleet's).
  hotlink: DEFAULT_SITE_HOTLINK,
  error_pages: {},
  // Signed URLs: off.
  url_auth: DEFAULT_SITE_URL_AUTH,
  // Redirects: none.
  redirects: DEFAULT_SITE_REDIRECTS,
  // Origin health checks: off.
  health_check: DEFAULT_SITE_HEALTH_CHECK,
  ...settings,
});

/** The columns a site is presented from. */
export type PresentedSiteRow = Pick<
  SiteRow,
  'id' | 'user_id' | 'group_id' | 'line_group_id' | 'name' | 'settings' | 'created_at' | 'updated_at'
>;

/**
 * `cname`: the operator's default CNAME domain, which the site's target hangs under, and the default
 * line group. `settings`: the row's settings already parsed (a list passes them from its cache).
 */
export const presentSite = (
  row: PresentedSiteRow,
  cname: SiteCname = NO_SITE_CNAME,
  settings?: SiteSettings,
): Site => ({
  ...presentedSettings(settings ?? (JSON.parse(row.settings) as SiteSettings)),
  id: row.id,
  user_id: row.user_id,
  group_id: row.group_id,
  line_group_id: row.line_group_id ?? null,
  name: row.name,
  cname: cnameTarget(row.id, cname.domain),
  cname_state: cnameState(row.line_group_id ?? null, cname),
  created_at: new Date(row.created_at).toISOString(),
  updated_at: new Date(row.updated_at).toISOString(),
});

/**
 * A domain search counts its matches up to here: a term as broad as "com" would otherwise read every
 * domain of the user's sites just for the total, while its first pages stop after a few rows.
 */
export const SEARCH_COUNT_CAP = 10_000;

export const findSite = (db: Kysely<Database>, owner: Owner, id: number) =>
  db
    .selectFrom('sites')
    .selectAll()
    .where('id', '=', id)
    .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
    .executeTakeFirst();

export const findSites = (db: Kysely<Database>, owner: Owner, ids: readonly number[]) =>
  db
    .selectFrom('sites')
    .selectAll()
    .where('id', 'in', ids)
    .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
    .execute();

/** Domains already taken by other sites (any user's). */
export async function takenDomains(db: Kysely<Database>, domains: readonly string[], exceptSiteId: number | null) {
  if (domains.length === 0) return [];
  const rows = await db
    .selectFrom('site_domains')
    .select('domain')
    .where('domain', 'in', domains)
    .$if(exceptSiteId !== null, (qb) => qb.where('site_id', '!=', exceptSiteId ?? 0))
    .execute();
  return rows.map((row) => row.domain);
}

export interface SiteRecord {
  userId: number;
  groupId: number | null;
  /** The chosen line group (null: the default); undefined leaves it as it is. */
  lineGroupId?: number | null;
  name: string;
  settings: SiteSettings;
}

const columns = (record: SiteRecord, version: number, now: number) => ({
  user_id: record.userId,
  group_id: record.groupId,
  ...(record.lineGroupId !== undefined && { line_group_id: record.lineGroupId }),
  name: record.name,
  primary_domain: record.settings.domains[0] ?? '',
  settings: JSON.stringify(record.settings),
  enabled: record.settings.enabled ? 1 : 0,
  https: record.settings.https_listen ? 1 : 0,
  cert_id: record.settings.cert_id,
  version,
  updated_at: now,
});

/** A site's domains and their search postings. */
async function writeDomains(db: Kysely<Database>, siteId: number, domains: readonly string[]) {
  await db
    .insertInto('site_domains')
    .values(domains.map((domain) => ({ domain, site_id: siteId, reversed: reversedDomain(domain) })))
    .execute();
  await writeSiteGrams(db, siteId, domains);
}

/** Rewrites a site's domains and postings; leaves both alone when the domains did not change. */
async function replaceDomains(db: Kysely<Database>, siteId: number, domains: readonly string[]) {
  const current = await db.selectFrom('site_domains').select('domain').where('site_id', '=', siteId).execute();
  if (current.length === domains.length && current.every((row) => domains.includes(row.domain))) return;
  await db.deleteFrom('site_domains').where('site_id', '=', siteId).execute();
  await writeDomains(db, siteId, domains);
}

export async function insertSite(db: Kysely<Database>, record: SiteRecord, version: number, now: number) {
  const row = await db
    .insertInto('sites')
    .values({ ...columns(record, version, now), created_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeDomains(db, row.id, record.settings.domains);
  await ensureRequiredDomainProofs(db, record.userId, record.settings.domains, now);
  return row;
}

export async function updateSite(db: Kysely<Database>, id: number, record: SiteRecord, version: number, now: number) {
  const row = await db
    .updateTable('sites')
    .set(columns(record, version, now))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await replaceDomains(db, id, record.settings.domains);
  await ensureRequiredDomainProofs(db, record.userId, record.settings.domains, now);
  return row;
}

/** Domains and search postings go with their sites (foreign keys cascade). */
export async function deleteSites(db: Kysely<Database>, ids: readonly number[]) {
  if (ids.length > 0) await db.deleteFrom('sites').where('id', 'in', ids).execute();
}

/**
 * Enabled sites of enabled users whose user package (if any) is active and within its monthly
 * traffic: the sites served in full. (Snapshots use snapshotSites, which also carries the others.)
 */
export const liveSites = (db: Kysely<Database>) =>
  db
    .selectFrom('sites')
    .innerJoin('users', 'users.id', 'sites.user_id')
    .leftJoin('user_packages', 'user_packages.id', 'sites.user_package_id')
    .select(['sites.id', 'sites.settings'])
    .where('sites.enabled', '=', 1)
    .where('users.status', '=', 'enabled')
    .where((eb) =>
      eb.or([
        eb('sites.user_package_id', 'is', null),
        eb.and([eb('user_packages.state', '=', 'active'), eb('user_packages.traffic_exceeded', '=', 0)]),
      ]),
    )
    .orderBy('sites.id')
    .execute();

/**
 * Enabled sites of enabled users, for snapshots, with the state of the user package each counts
 * against (null columns: none): a site of an inactive package stays, and the policy decides what the
 * edge does with it (package-enforcement.ts).
 */
export const snapshotSites = (db: Kysely<Database>) =>
  db
    .selectFrom('sites')
    .innerJoin('users', 'users.id', 'sites.user_id')
    .leftJoin('user_packages', 'user_packages.id', 'sites.user_package_id')
    .select([
      'sites.id',
      'sites.settings',
      'user_packages.id as user_package_id',
      'user_packages.state as package_state',
      'user_packages.traffic_exceeded',
    ])
    .where('sites.enabled', '=', 1)
    .where('users.status', '=', 'enabled')
    .orderBy('sites.id')
    .execute();
