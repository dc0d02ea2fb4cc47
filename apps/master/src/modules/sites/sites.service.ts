import type { CreateSiteBody, SiteSettings, UpdateSiteBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { certCovers } from '../certs/cert-validation.ts';
import { changeConfig } from '../config/config-version.ts';
import { newSiteDefaults } from '../edge-settings/edge-settings.service.ts';
import { checkRoom, claimRoom } from '../packages/package-room.ts';
import { checkNewSiteFeatures, checkSiteFeatureChange } from '../packages/site-features.ts';
import { checkSiteProtection, newSiteProtection } from '../protection/site-protection.ts';
import { readSetting } from '../settings/settings.service.ts';
import type { Owner } from '../tenancy.ts';
import { readSiteDefaults } from '../user-configs/user-configs.ts';
import { provedByOthers } from './domain-proofs.repository.ts';
import { claimConflicts } from './site-claims.repository.ts';
import { checkSiteSettings, DEFAULT_SITE_SETTINGS } from './site-rules.ts';
import {
  deleteSites,
  findSite,
  findSites,
  insertSite,
  type SiteRecord,
  takenDomains,
  updateSite,
} from './sites.repository.ts';

/** Checks that need the database: domains free, certificate and group belong to the site's owner. */
async function checkOwnership(db: Kysely<Database>, record: SiteRecord, siteId: number | null) {
  const taken = await takenDomains(db, record.settings.domains, siteId);
  if (taken.length > 0) throw new AppError('conflict', `domains: ${taken.join(', ')} already belongs to another site`);
  if (await readSetting(db, 'domain_proof')) {
    const [proved] = await provedByOthers(db, record.userId, record.settings.domains);
    if (proved) {
      const under = proved.held === proved.domain ? '' : ` falls under ${proved.held}, which`;
      throw new AppError('conflict', `domains[${proved.index}]: ${proved.domain}${under} is proved by another account`);
    }
  }
  const [overlap] = await claimConflicts(db, record.userId, record.settings.domains);
  if (overlap) {
    const { claimed, held } = overlap;
    throw new AppError(
      'conflict',
      overlap.kind === 'covers'
        ? `domains: ${claimed} would cover ${held}, which belongs to another user's site`
        : `domains: ${claimed} falls under ${held}, which belongs to another user's site`,
    );
  }
  if (record.settings.cert_id !== null) {
    const cert = await db
      .selectFrom('certs')
      .select(['names', 'not_after'])
      .where('id', '=', record.settings.cert_id)
      .where('user_id', '=', record.userId)
      .executeTakeFirst();
    if (!cert) throw new AppError('not_found', `cert_id: certificate ${record.settings.cert_id} does not exist`);
    const names = JSON.parse(cert.names) as string[];
    const uncovered = record.settings.domains.filter((domain) => !certCovers(names, domain));
    if (record.settings.https_listen && uncovered.length > 0) {
      throw new AppError('invalid_param', `cert_id: the certificate does not cover ${uncovered.join(', ')}`);
    }
  }
  if (record.lineGroupId !== undefined && record.lineGroupId !== null) {
    const line = await db
      .selectFrom('node_groups')
      .select('id')
      .where('id', '=', record.lineGroupId)
      .executeTakeFirst();
    if (!line) throw new AppError('not_found', `line_group_id: line group ${record.lineGroupId} does not exist`);
  }
  if (record.groupId !== null) {
    const group = await db
      .selectFrom('site_groups')
      .select('id')
      .where('id', '=', record.groupId)
      .where('user_id', '=', record.userId)
      .executeTakeFirst();
    if (!group) throw new AppError('not_found', `group_id: site group ${record.groupId} does not exist`);
  }
  await checkSiteProtection(db, record.userId, record.settings.protection);
}

/**
 * A new site: built-in defaults, then the admin's (/config/default), then the owner's own
 * (/v1/user-configs), then what was sent.
 */
export async function createSite(db: Kysely<Database>, userId: number, body: CreateSiteBody) {
  const { name, group_id, line_group_id, user_package_id, ...fields } = body;
  const admin = await newSiteDefaults(db, userId, typeof fields.cert_id === 'number');
  const settings: SiteSettings = {
    ...DEFAULT_SITE_SETTINGS,
    ...admin,
    protection: { ...(await newSiteProtection(db)), ...admin.protection },
    ...(await readSiteDefaults(db, userId)),
    ...fields,
  };
  // What needs HTTPS is not defaulted on for a site sent without it.
  if (!settings.https_listen) {
    if (fields.force_https === undefined) settings.force_https = false;
    if (fields.http2 === undefined) settings.http2 = false;
  }
  checkSiteSettings(settings);
  const record: SiteRecord = {
    userId,
    groupId: group_id ?? null,
    lineGroupId: line_group_id ?? null,
    name: name ?? settings.domains[0] ?? '',
    settings,
  };
  await checkOwnership(db, record, null);
  return changeConfig(db, async (trx, version) => {
    const need = { sites: 1, domains: settings.domains.length };
    const userPackageId = await claimRoom(trx, userId, user_package_id, need);
    record.settings = await checkNewSiteFeatures(trx, userId, userPackageId, settings, fields);
    const row = await insertSite(trx, record, version, Date.now());
    if (userPackageId === null) return row;
    await trx.updateTable('sites').set({ user_package_id: userPackageId }).where('id', '=', row.id).execute();
    return { ...row, user_package_id: userPackageId };
  });
}

export async function editSite(db: Kysely<Database>, owner: Owner, id: number, body: UpdateSiteBody) {
  const row = await findSite(db, owner, id);
  if (!row) throw new AppError('not_found', `site ${id} does not exist`);
  const { name, group_id, line_group_id, ...fields } = body;
  const settings: SiteSettings = { ...(JSON.parse(row.settings) as SiteSettings), ...fields };
  checkSiteSettings(settings);
  const record: SiteRecord = {
    userId: row.user_id,
    groupId: group_id === undefined ? row.group_id : group_id,
    lineGroupId: line_group_id,
    name: name ?? row.name,
    settings,
  };
  await checkOwnership(db, record, row.id);
  await checkSiteFeatureChange(db, row, JSON.parse(row.settings) as SiteSettings, settings);
  const added = settings.domains.length - (JSON.parse(row.settings) as SiteSettings).domains.length;
  return changeConfig(db, async (trx, version) => {
    if (row.user_package_id !== null && added > 0)
      await checkRoom(trx, row.user_id, row.user_package_id, { domains: added });
    return updateSite(trx, row.id, record, version, Date.now());
  });
}

export type SiteBatchAction = 'enable' | 'disable' | 'delete' | 'move';

/** Batch PUT: all listed sites must be the caller's; either every change applies or none. */
export async function batchSites(
  db: Kysely<Database>,
  owner: Owner,
  ids: readonly number[],
  action: SiteBatchAction,
  groupId: number | null | undefined,
) {
  const rows = await findSites(db, owner, ids);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw new AppError('not_found', `ids: site ${missing.join(', ')} does not exist`);
  if (action === 'move' && groupId === undefined)
    throw new AppError('invalid_param', 'group_id: is required to move sites');
  return changeConfig(db, async (trx, version) => {
    if (action === 'delete') return deleteSites(trx, ids);
    const now = Date.now();
    for (const row of rows) {
      const settings = JSON.parse(row.settings) as SiteSettings;
      if (action === 'enable' || action === 'disable') settings.enabled = action === 'enable';
      const record: SiteRecord = {
        userId: row.user_id,
        groupId: action === 'move' ? (groupId ?? null) : row.group_id,
        name: row.name,
        settings,
      };
      if (action === 'move') await checkOwnership(trx, record, row.id);
      await updateSite(trx, row.id, record, version, now);
    }
  });
}
