import { DEFAULT_SITE_PROTECTION, type SiteProtection } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { invalidParam } from '../../errors.ts';
import { readConfig, WAF_DEFAULTS } from '../settings/configs.ts';
import { cidrProblem } from './conditions.ts';
import { groupUsableBy } from './site-protection.repository.ts';

/**
 * The checks of SiteSettings.protection that need more than its schema: rule groups the site's
 * owner may use (their own or system ones), whitelist entries that parse. Called by sites.service.
 */
export async function checkSiteProtection(
  db: Kysely<Database>,
  userId: number,
  protection: SiteProtection | undefined,
) {
  if (!protection) return;
  for (const key of ['rule_group_id', 'attack_rule_group_id'] as const) {
    const groupId = protection[key];
    if (groupId !== null && !(await groupUsableBy(db, groupId, userId))) {
      throw invalidParam(`protection/${key}`, `rule group ${groupId} does not exist`);
    }
  }
  for (const [index, cidr] of protection.whitelist.entries()) {
    const problem = cidrProblem(cidr);
    if (problem) throw invalidParam(`protection/whitelist/${index}`, problem);
  }
}

/** What a new site starts with: the default, with the operator's WAF defaults (global-0-waf-defaults). */
export async function newSiteProtection(db: Kysely<Database>): Promise<SiteProtection> {
  return { ...DEFAULT_SITE_PROTECTION, waf: (await readConfig(db, WAF_DEFAULTS)).value };
}
