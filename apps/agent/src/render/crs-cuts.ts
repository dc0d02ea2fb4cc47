/** One rule file of the CRS, or of the tree's copy of it. */
export interface CrsRuleFile {
  name: string;
  text: string;
}

/**
 * What decides which CRS rules can do something on a node: its profiles' paranoia levels and
 * exclusions, whether rules.conf lets ModSecurity read response bodies, and the text that can
 * change CRS settings (crs-setup.conf and every rule file that is not the CRS's own).
 */
export interface CrsNode {
  levels: { lowest: number; highest: number };
  excluded: ReadonlySet<number>;
  responseBodyAccess: boolean;
  settings: string;
}

/** The CRS 3.3 files themselves; anything else in the rules directory is the admin's and counts as settings. */
export function isCrsOwnFile(name: string): boolean {
  return /^(?:REQUEST-9(?:0[1-9]|[1-4]\d)|RESPONSE-9[5-8]\d)[.-]/.test(name);
}

/**
 * Files that do nothing unless a setting names one of these TX variables (CRS 3.3.4):
 * - 910 IP reputation: every rule waits for `do_reput_block`, `high_risk_country_codes` or an RBL key;
 * - 912 DoS protection: skips itself whole unless one of the three DoS settings is set;
 * - 980 correlation: its rules read variables no CRS 3.3 rule sets, need `monitor_anomaly_score`,
 *   add up an outbound score that only phase 4 rules raise, or repeat 949110's verdict in a message
 *   the agent leaves out of its findings (980130).
 */
const FILES_UNLESS: { prefix: string; unless: string[] }[] = [
  {
    prefix: 'REQUEST-910-',
    unless: [
      'do_reput_block',
      'high_risk_country_codes',
      'block_suspicious_ip',
      'block_harvester_ip',
      'block_spammer_ip',
      'block_search_ip',
    ],
  },
  { prefix: 'REQUEST-912-', unless: ['dos_burst_time_slice', 'dos_counter_threshold', 'dos_block_timeout'] },
  { prefix: 'RESPONSE-980-', unless: ['monitor_anomaly_score', 'LEAKAGE/ERRORS', 'AVAILABILITY/APP_NOT_AVAIL'] },
];

/** Rules that never match unless a setting names one of these TX variables (CRS 3.3.4). */
const RULES_UNLESS: { ids: number[]; unless: string[] }[] = [
  // Blocks by IP reputation only with do_reput_block = 1 (the default is 0).
  { ids: [949100], unless: ['do_reput_block'] },
  // Forces URL-encoded body parsing only with enforce_bodyproc_urlencoded = 1 (the default is 0).
  { ids: [901350], unless: ['enforce_bodyproc_urlencoded'] },
  // Sampling: at the default 100 % the first rule skips the rest.
  { ids: [901400, 901410, 901420, 901430, 901440, 901450], unless: ['sampling_percentage'] },
  // Executing level below the level: the profile rule sets both to the same value.
  { ids: [901500], unless: ['paranoia_level'] },
];

/** The user-agent hash and the IP and GLOBAL collections of 901: read only by 910, 912 and 949100. */
const COLLECTION_RULES = [901318, 901321];
const READS_COLLECTIONS = /\b(?:ip|global):|%\{(?:ip|global)\.|\breal_ip\b|\bua_hash\b/i;

/** Ids of the rules the copy adds, in ModSecurity's range for local rules, below the profile rules' ids. */
export const DEFAULTS_RULE_ID = 9901;
export const MULTIPART_GUARD_ID = 9922;
const MULTIPART_GUARD_END = 'RAMPART-END-922110';

/**
 * The CRS copy with the rules that can do nothing on this node left out, and two that cost far more
 * than they do made cheaper, detections unchanged:
 * - the files and rules above whose settings nothing sets;
 * - with response bodies not read, phase 4 rules never run: left out, and files left with nothing
 *   but paranoia checks go too;
 * - 901's `&TX:x "@eq 0"` defaults, each a rule that matches on every request: one SecAction sets
 *   those no setting names (the others stay as they are);
 * - 922110 reads `TX:/MULTIPART_HEADERS_CONTENT_TYPES_*\/`, which libmodsecurity compiles for every
 *   request; only 922150 sets those variables, from multipart part headers, so a rule skips 922110
 *   when there are none;
 * - 949's `TX:PARANOIA_LEVEL "@ge N"` sums above the highest level never match;
 * - a rule that waits for a TX variable to be 1 (or set) that no CRS rule sets and no setting names
 *   never matches (the optional checks of 920: UTF-8 validation, argument and file size limits).
 * A file is kept whole when another file skips to one of its markers, and a CRS other than 3.3 is not cut.
 */
export function cutCrsCopy(files: readonly CrsRuleFile[], node: CrsNode): CrsRuleFile[] {
  // What is cut was read from CRS 3.3 and checked against its regression corpus; another release is kept whole.
  const release = files.find((file) => file.name.startsWith('REQUEST-901-'))?.text ?? '';
  if (!/^SecComponentSignature "OWASP_CRS\/3\.3\.\d+"$/m.test(release)) return [...files];
  const named = (variables: string[]) => variables.some((variable) => mentions(node.settings, variable));
  const crsText = files.filter((file) => isCrsOwnFile(file.name)).map((file) => file.text);
  const setByCrs = (variable: string) =>
    crsText.some((text) => new RegExp(`setvar:'?tx\\.${variable}=`, 'i').test(text));
  const dropped = new Map<string, CrsRuleFile>();
  const kept: CrsRuleFile[] = [];
  for (const file of files) {
    if (!isCrsOwnFile(file.name)) {
      kept.push(file);
      continue;
    }
    const whole = FILES_UNLESS.find((cut) => file.name.startsWith(cut.prefix));
    if (whole && !named(whole.unless)) {
      dropped.set(file.name, file);
      continue;
    }
    const cut = cutRules(file.text, node, named, setByCrs);
    if (cut === null) dropped.set(file.name, file);
    else kept.push({ name: file.name, text: cut });
  }
  restoreSkipTargets(kept, dropped);
  const others = kept.filter((file) => !file.name.startsWith('REQUEST-901-')).map((file) => file.text);
  const collectionsRead = READS_COLLECTIONS.test(node.settings) || others.some((text) => READS_COLLECTIONS.test(text));
  return kept.map((file) =>
    file.name.startsWith('REQUEST-901-') && !collectionsRead
      ? { name: file.name, text: removeRules(file.text, new Set(COLLECTION_RULES)) }
      : file,
  );
}

/** One CRS file's text with its no-op rules left out; null when nothing but paranoia checks and markers is left. */
function cutRules(
  text: string,
  node: CrsNode,
  named: (variables: string[]) => boolean,
  setByCrs: (variable: string) => boolean,
): string | null {
  const ids = new Set<number>();
  for (const cut of RULES_UNLESS) if (!named(cut.unless)) for (const id of cut.ids) ids.add(id);
  const levelFixed = named(['paranoia_level']);
  for (const directive of directives(text)) {
    const id = ruleId(directive);
    if (id === null) continue;
    const flat = flatten(directive);
    if (!node.responseBodyAccess && /[",]phase:4[,"]/.test(flat)) ids.add(id);
    // An optional check (920250's UTF-8 validation, 920360's argument name length...) waits for a setting.
    const optional = /^SecRule &?TX:([A-Za-z0-9_]+) "@eq 1"/.exec(flat)?.[1];
    if (optional && !named([optional]) && !setByCrs(optional)) ids.add(id);
    const sum = /^SecRule TX:PARANOIA_LEVEL "@ge ([1-4])"/.exec(flat);
    if (sum && !levelFixed && Number(sum[1]) > node.levels.highest) ids.add(id);
  }
  let result = removeRules(text, ids);
  if (!/^SecRule |^SecAction\b/m.test(result.replace(PARANOIA_CHECKS, ''))) return null;
  result = collapseDefaults(result, node, named);
  return guardMultipart(result, node, named);
}

const PARANOIA_CHECKS = /^SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt [1-9]" "[^"\n]*"$/gm;

/** 901's defaults, `SecRule &TX:x "@eq 0" "...,setvar:'tx.x=value'"`, that one SecAction can set. */
const DEFAULT_RULE =
  /^SecRule &TX:([A-Za-z0-9_]+) "@eq 0" "id:(\d+),phase:1,pass,nolog,ver:'[^']*',setvar:'tx\.([A-Za-z0-9_]+)=([^'%]*)'"$/;

function collapseDefaults(text: string, node: CrsNode, named: (variables: string[]) => boolean): string {
  if (
    node.excluded.has(DEFAULTS_RULE_ID) ||
    idUsed(text, DEFAULTS_RULE_ID) ||
    idUsed(node.settings, DEFAULTS_RULE_ID)
  ) {
    return text;
  }
  const setvars: string[] = [];
  const out: string[] = [];
  let placed = -1;
  for (const directive of directives(text)) {
    const rule = DEFAULT_RULE.exec(flatten(directive));
    const name = rule?.[1] ?? '';
    const collapsible =
      rule &&
      name.toLowerCase() === rule[3]?.toLowerCase() &&
      !/paranoia_level$/i.test(name) &&
      !node.excluded.has(Number(rule[2])) &&
      !named([name]);
    if (!collapsible) {
      out.push(directive);
      continue;
    }
    setvars.push(`setvar:'tx.${name}=${rule[4]}'`);
    if (placed < 0) {
      placed = out.length;
      out.push('');
    }
  }
  if (placed < 0) return text;
  out[placed] = [
    '# The defaults below that no setting names, set at once (each was a rule matching on every request).',
    `SecAction "id:${DEFAULTS_RULE_ID},phase:1,pass,nolog,t:none,${setvars.join(',')}"`,
  ].join('\n');
  return out.join('\n');
}

function guardMultipart(text: string, node: CrsNode, named: (variables: string[]) => boolean): string {
  if (named(['multipart_headers_content_types']) || idUsed(node.settings, MULTIPART_GUARD_ID)) return text;
  const all = directives(text);
  const at = all.findIndex((directive) => ruleId(directive) === 922110);
  const rule = all[at];
  if (
    !rule ||
    !flatten(rule).startsWith('SecRule TX:/MULTIPART_HEADERS_CONTENT_TYPES_*/ ') ||
    idUsed(text, MULTIPART_GUARD_ID)
  ) {
    return text;
  }
  const guard = `SecRule &MULTIPART_PART_HEADERS "@eq 0" "id:${MULTIPART_GUARD_ID},phase:2,pass,t:none,nolog,skipAfter:${MULTIPART_GUARD_END}"`;
  return [...all.slice(0, at), guard, rule, `SecMarker "${MULTIPART_GUARD_END}"`, ...all.slice(at + 1)].join('\n');
}

/** Puts back dropped files that hold a marker a kept rule skips to (a missing marker would skip the rest of the phase). */
function restoreSkipTargets(kept: CrsRuleFile[], dropped: Map<string, CrsRuleFile>): void {
  for (;;) {
    const defined = new Set(
      kept.flatMap((file) => [...file.text.matchAll(/^SecMarker "?([^"\s]+)"?/gm)].map((m) => m[1])),
    );
    const wanted = new Set(
      kept.flatMap((file) => [...file.text.matchAll(/skipAfter:'?([A-Za-z0-9_-]+)/g)].map((m) => m[1])),
    );
    const missing = [...wanted].filter((marker) => !defined.has(marker));
    const back = [...dropped.values()].find((file) =>
      missing.some((marker) => new RegExp(`^SecMarker "?${marker}"?\\s*$`, 'm').test(file.text)),
    );
    if (!back) return;
    dropped.delete(back.name);
    const index = kept.findIndex((file) => file.name > back.name);
    kept.splice(index < 0 ? kept.length : index, 0, back);
  }
}

/** A rule file's text as directives: each with its continuation lines; comments and blank lines are their own. */
export function directives(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    current.push(line);
    if (!line.endsWith('\\')) {
      out.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0) out.push(current.join('\n'));
  return out;
}

/** A directive on one line, its continuations joined. */
function flatten(directive: string): string {
  return directive.replace(/\\\n[ \t]*/g, '');
}

/** The id of a SecRule or SecAction; null for markers, comments, and the rules chained to another. */
function ruleId(directive: string): number | null {
  if (!isRule(directive)) return null;
  const id = /["',]id:(\d+)/.exec(flatten(directive));
  return id ? Number(id[1]) : null;
}

function isRule(directive: string): boolean {
  return /^\s*Sec(?:Rule|Action)\s/.test(directive);
}

/** The text without the rules of these ids, each with the rules chained to it. */
export function removeRules(text: string, ids: ReadonlySet<number>): string {
  if (ids.size === 0) return text;
  const out: string[] = [];
  let removing = false;
  for (const directive of directives(text)) {
    const id = ruleId(directive);
    const code = directive.trimStart();
    // A SecRule without an id is chained to the rule before it; comments and blank lines between do not end the chain.
    if (id !== null) removing = ids.has(id);
    else if (!code.startsWith('SecRule ') && code !== '' && !code.startsWith('#')) removing = false;
    if (removing && isRule(directive)) continue;
    out.push(directive);
  }
  return out.join('\n');
}

/** Whether a line that is not a comment names the variable (any case), or the text includes other files. */
export function mentions(text: string, variable: string): boolean {
  const lower = variable.toLowerCase();
  return text.split('\n').some((line) => {
    const code = line.trimStart();
    if (code.startsWith('#')) return false;
    return /^Include(?:Optional)?\s/i.test(code) || code.toLowerCase().includes(lower);
  });
}

function idUsed(text: string, id: number): boolean {
  return new RegExp(`\\bid:${id}\\b`).test(text);
}
