import { DEFAULT_STATIC_EXTS, MAX_STATIC_EXTS, type SiteProtection } from '@rampart/contracts';
import { type CrsRuleFile, cutCrsCopy, isCrsOwnFile, mentions } from './crs-cuts.ts';
import { integer, RenderRefusal, safeText } from './quote.ts';

/** Where this node's OWASP Core Rule Set lives; absent when ModSecurity or the CRS is not installed. */
export interface CrsPaths {
  /** crs-setup.conf (Debian: /etc/modsecurity/crs/crs-setup.conf). */
  setup: string;
  /** The directory of the REQUEST-* and RESPONSE-* rule files. */
  rulesDir: string;
  /** ModSecurity's unicode.mapping (urlDecodeUni), when the node has one. */
  unicodeMap: string | null;
  /**
   * The rule files of rulesDir (*.conf, in name order) and the text of crs-setup.conf, when read: the
   * tree then loads its own copy with the rules no profile can run left out (see trimCrsFile).
   */
  ruleFiles?: readonly CrsRuleFile[];
  setupText?: string;
}

export type { CrsRuleFile } from './crs-cuts.ts';

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

/** rules.conf never lets ModSecurity read response bodies: phase 4 rules then never run (see cutCrsCopy). */
const RESPONSE_BODY_ACCESS = false;

/** Rule ids of the profile rules: ModSecurity's range for local rules (the CRS uses 900000 and up). */
const PROFILE_RULE_BASE = 10_000;
const MAX_PROFILES = 89_999;

/**
 * The ModSecurity rules file of a snapshot with WAF sites: engine settings, the audit log the agent
 * reads hits from (JSON, one transaction a line, only transactions a rule matched), one rule per
 * profile, then the CRS. Every value is an integer or a path that passed the guards.
 */
export function renderWafRules(
  profiles: readonly WafProfile[],
  crs: CrsPaths,
  auditLog: string,
  crsCopyDir: string | null = null,
): string {
  if (profiles.length > MAX_PROFILES) throw new RenderRefusal('waf', `at most ${MAX_PROFILES} distinct WAF settings`);
  const lines = [
    '# Rendered by the Rampart agent. ModSecurity runs only in the locations of sites with the WAF on.',
    'SecRuleEngine On',
    'SecRequestBodyAccess On',
    'SecRequestBodyLimit 13107200',
    'SecRequestBodyNoFilesLimit 131072',
    // Larger bodies (uploads up to client_max_body_size) are inspected in part, not refused.
    'SecRequestBodyLimitAction ProcessPartial',
    `SecResponseBodyAccess ${RESPONSE_BODY_ACCESS ? 'On' : 'Off'}`,
    // Even unread, libmodsecurity copies every response body of a listed type, all types when none is listed.
    ...(RESPONSE_BODY_ACCESS ? [] : ['SecResponseBodyMimeType application/x-rampart-never-read']),
    'SecPcreMatchLimit 100000',
    'SecPcreMatchLimitRecursion 100000',
    ...(crs.unicodeMap ? [`SecUnicodeMapFile ${path(crs.unicodeMap, 'unicodeMap')} 20127`] : []),
    // Only transactions a rule logged: without SecAuditLogRelevantStatus no status is relevant, and
    // libmodsecurity does not compile a status pattern for every transaction.
    'SecAuditEngine RelevantOnly',
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
  const rules = crsCopyDir ? path(crsCopyDir, 'crs copy') : path(crs.rulesDir, 'crs rules');
  lines.push('', `Include ${path(crs.setup, 'crs setup')}`, `Include ${rules}/*.conf`, '');
  return lines.join('\n');
}

/** Written bare (ModSecurity does not take every directive's path quoted): letters, digits, . _ - / only. */
function path(value: string, field: string): string {
  const text = safeText(value, field, 1024);
  if (!/^\/[A-Za-z0-9._/-]+$/.test(text))
    throw new RenderRefusal(field, 'an absolute path of letters, digits, . _ - /');
  return text;
}

/**
 * The CRS rule files this tree loads in place of rulesDir's, trimmed for its profiles' paranoia
 * levels (see trimCrsFile) and without the rules its settings make no-ops (see cutCrsCopy); null
 * when the node's rule files were not read (the tree then includes rulesDir itself).
 */
export function renderCrsCopy(profiles: readonly WafProfile[], crs: CrsPaths): CrsRuleFile[] | null {
  if (!crs.ruleFiles || crs.ruleFiles.length === 0 || crs.setupText === undefined) return null;
  const levels = profiles.map((profile) => Number(integer(profile.paranoia, 'waf.paranoia', 1, 4)));
  const range = { lowest: Math.min(...levels), highest: Math.max(...levels) };
  // What can set CRS settings: the setup, and any file in the rules directory that is not the CRS's own.
  const settings = [crs.setupText, ...crs.ruleFiles.filter((file) => !isCrsOwnFile(file.name)).map((f) => f.text)];
  const source = { rulesDir: path(crs.rulesDir, 'crs rules'), setupText: settings.join('\n') };
  const copy: CrsRuleFile[] = [];
  for (const file of crs.ruleFiles) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.conf$/.test(file.name)) {
      throw new RenderRefusal('crs rules', 'rule file names of letters, digits, . _ -');
    }
    const text = trimCrsFile(file, range, source);
    if (text !== null) copy.push({ name: file.name, text });
  }
  return cutCrsCopy(copy, {
    levels: range,
    excluded: new Set(profiles.flatMap((profile) => profile.exclusions)),
    responseBodyAccess: RESPONSE_BODY_ACCESS,
    settings: source.setupText,
  });
}

/** A CRS file's paranoia check: transactions below `level` skip to the file's end marker. */
const PARANOIA_CHECK =
  /^SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt ([1-9])" "id:\d+,phase:[1-5],pass,nolog,skipAfter:([A-Za-z0-9_-]+)"$/;
/** An application exclusion file's guard: `&TX:crs_exclusions_<name>|TX:crs_exclusions_<name> "@eq 0"`. */
const EXCLUSIONS_GUARD = /^SecRule &TX:crs_exclusions_([a-z0-9_]+)\|TX:crs_exclusions_\1 "@eq 0"/m;
const DATA_FILE = /"@(pmFromFile|ipMatchFromFile) ([A-Za-z0-9._-]+)"/g;

/**
 * One CRS rule file as this tree loads it, given the lowest and highest paranoia level of its
 * profiles. ModSecurity builds a rule message for every rule it evaluates, skipped or not, so a
 * benign GET at paranoia 1 spent about a third of its rules on checks that cannot change anything:
 * - `@lt N` checks with N at or below the lowest level never skip (every profile sets the level
 *   in phase 1, before the CRS): left out;
 * - from the first `@lt N` check with N above the highest level to the file's end marker, the
 *   rules never run for any profile: left out;
 * - an application exclusion file (REQUEST-903.*) whose `crs_exclusions_<name>` crs-setup.conf
 *   does not set skips itself whole: left out;
 * and data files are named by absolute path, since the copy lives outside rulesDir. A file in a
 * shape these rules do not expect (another marker inside a cut, a check written otherwise) is
 * kept whole: the cut is only ever of rules that could not run.
 */
export function trimCrsFile(
  file: CrsRuleFile,
  levels: { lowest: number; highest: number },
  crs: { rulesDir: string; setupText: string },
): string | null {
  const exclusions = EXCLUSIONS_GUARD.exec(file.text);
  if (exclusions && !mentions(crs.setupText, `crs_exclusions_${exclusions[1]}`)) return null;
  const dataPaths = (text: string) =>
    text.replace(DATA_FILE, (_, operator: string, name: string) => `"@${operator} ${crs.rulesDir}/${name}"`);
  const lines = file.text.split('\n');
  const unexpected = (line: string) =>
    line.startsWith('SecRule TX:EXECUTING_PARANOIA_LEVEL') && !PARANOIA_CHECK.test(line);
  if (lines.some(unexpected)) return dataPaths(file.text);
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const check = PARANOIA_CHECK.exec(line);
    if (!check) {
      kept.push(line);
      continue;
    }
    const level = Number(check[1]);
    if (level <= levels.lowest) continue;
    if (level <= levels.highest) {
      kept.push(line);
      continue;
    }
    const end = lines.indexOf(`SecMarker "${check[2]}"`, i);
    if (end < 0 || lines.slice(i + 1, end).some((text) => text.startsWith('SecMarker'))) {
      return dataPaths(file.text);
    }
    kept.push(`# Paranoia level ${level} and above left out: no profile of this node runs them.`);
    i = end - 1;
  }
  return dataPaths(kept.join('\n'));
}
