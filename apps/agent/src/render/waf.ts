import { DEFAULT_STATIC_EXTS, MAX_STATIC_EXTS, type SiteProtection } from '@rampart/contracts';
import { integer, RenderRefusal, safeText } from './quote.ts';

/** Where this node's OWASP Core Rule Set lives; absent when ModSecurity or the CRS is not installed. */
export interface CrsPaths {
  /** crs-setup.conf (Debian: /etc/modsecurity/crs/crs-setup.conf). */
  setup: string;
  /** The directory of the REQUEST-* and RESPONSE-* rule files. */
  rulesDir: string;
  /** ModSecurity's unicode.mapping (urlDecodeUni), when the node has one. */
  unicodeMap: string | null;
}

/**
 * One distinct WAF setting among the sites of a snapshot. Sites with the same mode, paranoia and
 * exclusions share a profile; the rules file loads the CRS once and a phase-1 rule per profile
 * applies its settings to the transactions whose id the router starts with `w<number>.`.
 */
export interface WafProfile {
  number: number;
  mode: 'detect' | 'block';
  paranoia: number;
  exclusions: number[];
}

export type WafSettings = SiteProtection['waf'];

/** Profiles by their key, numbered from 1 in the order sites first use them. */
export class WafProfiles {
  private readonly byKey = new Map<string, WafProfile>();

  /** The profile number of a site's WAF settings; 0 when the WAF is off. */
  numberOf(waf: WafSettings): number {
    if (waf.mode === 'off') return 0;
    if (waf.mode !== 'detect' && waf.mode !== 'block') throw new RenderRefusal('waf.mode', 'off, detect or block');
    const paranoia = Number(integer(waf.paranoia, 'waf.paranoia', 1, 4));
    const exclusions = [
      ...new Set(waf.exclusions.map((id, i) => Number(integer(id, `waf.exclusions[${i}]`, 1, 9_999_999)))),
    ].sort((a, b) => a - b);
    const key = `${waf.mode}|${paranoia}|${exclusions.join(',')}`;
    let profile = this.byKey.get(key);
    if (!profile) {
      profile = { number: this.byKey.size + 1, mode: waf.mode, paranoia, exclusions };
      this.byKey.set(key, profile);
    }
    return profile.number;
  }

  get size(): number {
    return this.byKey.size;
  }

  list(): WafProfile[] {
    return [...this.byKey.values()];
  }
}

/**
 * The extensions whose plain requests skip the engine (routes.json `waf_static`), once each in
 * lower case; null when the site inspects static files too or lists none. Not part of the profile:
 * the router decides per request, so these settings never split a profile.
 */
export function wafStaticExts(waf: WafSettings): string[] | null {
  if (waf.mode === 'off' || waf.inspect_static === true) return null;
  const listed = waf.static_exts ?? DEFAULT_STATIC_EXTS;
  if (!Array.isArray(listed)) throw new RenderRefusal('waf.static_exts', 'a list of file extensions');
  if (listed.length > MAX_STATIC_EXTS) throw new RenderRefusal('waf.static_exts', `at most ${MAX_STATIC_EXTS}`);
  const exts = listed.map((ext, i) => {
    const text = safeText(ext, `waf.static_exts[${i}]`, 10);
    if (!/^[a-z0-9]{1,10}$/.test(text)) {
      throw new RenderRefusal(`waf.static_exts[${i}]`, '1 to 10 lower-case letters or digits');
    }
    return text;
  });
  return exts.length === 0 ? null : [...new Set(exts)];
}

/** Rule ids of the profile rules: ModSecurity's range for local rules (the CRS uses 900000 and up). */
const PROFILE_RULE_BASE = 10_000;
const MAX_PROFILES = 89_999;

/**
 * The ModSecurity rules file of a snapshot with WAF sites: engine settings, the audit log the agent
 * reads hits from (JSON, one transaction a line, only transactions a rule matched), one rule per
 * profile, then the CRS. Every value is an integer or a path that passed the guards.
 */
export function renderWafRules(profiles: readonly WafProfile[], crs: CrsPaths, auditLog: string): string {
  if (profiles.length > MAX_PROFILES) throw new RenderRefusal('waf', `at most ${MAX_PROFILES} distinct WAF settings`);
  const path = (value: string, field: string) => {
    // Written bare (ModSecurity does not take every directive's path quoted): letters, digits, . _ - / only.
    const text = safeText(value, field, 1024);
    if (!/^\/[A-Za-z0-9._/-]+$/.test(text))
      throw new RenderRefusal(field, 'an absolute path of letters, digits, . _ - /');
    return text;
  };
  const lines = [
    '# Rendered by the Rampart agent. ModSecurity runs only in the locations of sites with the WAF on.',
    'SecRuleEngine On',
    'SecRequestBodyAccess On',
    'SecRequestBodyLimit 13107200',
    'SecRequestBodyNoFilesLimit 131072',
    // Larger bodies (uploads up to client_max_body_size) are inspected in part, not refused.
    'SecRequestBodyLimitAction ProcessPartial',
    'SecResponseBodyAccess Off',
    'SecPcreMatchLimit 100000',
    'SecPcreMatchLimitRecursion 100000',
    ...(crs.unicodeMap ? [`SecUnicodeMapFile ${path(crs.unicodeMap, 'unicodeMap')} 20127`] : []),
    'SecAuditEngine RelevantOnly',
    'SecAuditLogRelevantStatus "^$"',
    'SecAuditLogParts AHZ',
    'SecAuditLogFormat JSON',
    'SecAuditLogType Serial',
    `SecAuditLog ${path(auditLog, 'wafAuditLog')}`,
    '',
    '# Per-profile settings, before the CRS reads them (paranoia) or runs the excluded rules.',
  ];
  for (const profile of profiles) {
    const number = Number(integer(profile.number, 'waf profile', 1, MAX_PROFILES));
    const paranoia = integer(profile.paranoia, 'waf.paranoia', 1, 4);
    const actions = [
      `id:${PROFILE_RULE_BASE + number}`,
      'phase:1',
      'pass',
      'nolog',
      't:none',
      `setvar:tx.paranoia_level=${paranoia}`,
      `setvar:tx.executing_paranoia_level=${paranoia}`,
      ...(profile.mode === 'detect' ? ['ctl:ruleEngine=DetectionOnly'] : []),
      ...profile.exclusions.map((id, i) => `ctl:ruleRemoveById=${integer(id, `waf.exclusions[${i}]`, 1, 9_999_999)}`),
    ];
    lines.push(`SecRule UNIQUE_ID "@beginsWith w${number}." "${actions.join(',')}"`);
  }
  lines.push('', `Include ${path(crs.setup, 'crs setup')}`, `Include ${path(crs.rulesDir, 'crs rules')}/*.conf`, '');
  return lines.join('\n');
}
