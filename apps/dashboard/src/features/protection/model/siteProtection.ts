import type { AclEntry } from '@rampart/contracts';
import { DEFAULT_SITE_PROTECTION, SiteProtection } from '@rampart/contracts';
import type { Acl } from '../api.ts';
import { type AclRow, aclEntry, aclRow } from './acl.ts';
import { isCidr } from './address.ts';
import { firstMisfit, lines, type Problem, quoted } from './problems.ts';
import { type WafValues, wafSettings, wafValues } from './waf.ts';

/** The protection section's form: the site's protection plus its ACL (a separate resource). */
export interface ProtectionValues {
  rule_group_id: number | null;
  attack_rule_group_id: number | null;
  under_attack: boolean;
  whitelistText: string;
  waf: WafValues;
  acl: AclRow[];
}

const MAX_WHITELIST = (SiteProtection.properties.whitelist as { maxItems?: number }).maxItems ?? 1000;

/** Sites saved before protection existed have none: they read as the defaults. */
export const protectionValues = (protection: SiteProtection | undefined, acl: Acl | null): ProtectionValues => {
  const current = protection ?? DEFAULT_SITE_PROTECTION;
  return {
    rule_group_id: current.rule_group_id,
    attack_rule_group_id: current.attack_rule_group_id,
    under_attack: current.under_attack,
    whitelistText: current.whitelist.join('\n'),
    waf: wafValues(current.waf),
    acl: (acl?.entries ?? []).map(aclRow),
  };
};

export const checkWhitelist = (text: string | undefined): Problem | undefined => {
  const addresses = lines(text);
  if (addresses.length > MAX_WHITELIST) return { key: 'whitelistMax', values: { max: MAX_WHITELIST } };
  const wrong = firstMisfit(isCidr, addresses);
  return wrong === undefined ? undefined : { key: 'cidr', values: { value: quoted(wrong) } };
};

export const protectionBody = (values: ProtectionValues): SiteProtection => ({
  rule_group_id: values.rule_group_id || null,
  attack_rule_group_id: values.attack_rule_group_id || null,
  under_attack: values.under_attack === true,
  whitelist: [...new Set(lines(values.whitelistText))],
  waf: wafSettings(values.waf),
});

export const aclEntries = (values: ProtectionValues): AclEntry[] => values.acl.map(aclEntry);
