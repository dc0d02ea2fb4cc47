import type { EdgeSettings, SiteSettings } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { groupUsableBy } from '../protection/site-protection.repository.ts';
import { readConfig } from '../settings/configs.ts';
import { EDGE_ERROR_PAGES, EDGE_NGINX, EDGE_RES, SITE_DEFAULTS } from './edge-settings.configs.ts';

/** The node-wide settings every snapshot carries. */
export async function edgeSettings(db: Kysely<Database>): Promise<EdgeSettings> {
  const [nginx, res, errorPages] = await Promise.all([
    readConfig(db, EDGE_NGINX),
    readConfig(db, EDGE_RES),
    readConfig(db, EDGE_ERROR_PAGES),
  ]);
  return { nginx: nginx.value, res: res.value, error_pages: errorPages.value };
}

/**
 * The admin's defaults as site settings: HTTPS (and what needs it) only when the new site comes
 * with a certificate, since a site cannot serve HTTPS without one; the rule group only while the
 * owner may use it (a group deleted or made private since is skipped, not an error).
 */
export async function newSiteDefaults(
  db: Kysely<Database>,
  userId: number,
  withCert: boolean,
): Promise<Partial<Omit<SiteSettings, 'protection'>> & { protection: { rule_group_id?: number } }> {
  const { value } = await readConfig(db, SITE_DEFAULTS);
  const https = withCert && value.https_listen;
  const group = value.rule_group_id;
  const usable = group !== null && (await groupUsableBy(db, group, userId));
  return {
    http_listen: value.http_listen || !https,
    https_listen: https,
    force_https: https && value.force_https,
    http2: https && value.http2,
    gzip: value.gzip,
    cache_rules: value.cache_rules,
    protection: usable ? { rule_group_id: group } : {},
  };
}
