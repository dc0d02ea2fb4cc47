import { describe, expect, it } from 'vitest';
import { type CrsNode, cutCrsCopy, DEFAULTS_RULE_ID, MULTIPART_GUARD_ID, mentions, removeRules } from './crs-cuts.ts';

const NODE: CrsNode = {
  levels: { lowest: 1, highest: 1 },
  excluded: new Set(),
  responseBodyAccess: false,
  settings: '',
};

const ids = (text: string | undefined) => [...(text ?? '').matchAll(/id:(\d+)/g)].map((match) => Number(match[1]));
const names = (files: { name: string }[]) => files.map((file) => file.name);

/** REQUEST-901 in the shape of CRS 3.3.4, shortened. */
const INIT = [
  'SecComponentSignature "OWASP_CRS/3.3.4"',
  'SecRule &TX:crs_setup_version "@eq 0" "id:901001,phase:1,deny,status:500,log"',
  'SecRule &TX:inbound_anomaly_score_threshold "@eq 0" \\',
  '    "id:901100,\\',
  '    phase:1,\\',
  '    pass,\\',
  '    nolog,\\',
  "    ver:'OWASP_CRS/3.3.4',\\",
  "    setvar:'tx.inbound_anomaly_score_threshold=5'\"",
  '',
  '# a comment between the defaults',
  'SecRule &TX:paranoia_level "@eq 0" "id:901120,phase:1,pass,nolog,ver:\'OWASP_CRS/3.3.4\',setvar:\'tx.paranoia_level=1\'"',
  'SecRule &TX:allowed_methods "@eq 0" "id:901160,phase:1,pass,nolog,ver:\'OWASP_CRS/3.3.4\',setvar:\'tx.allowed_methods=GET HEAD POST OPTIONS\'"',
  'SecRule REQUEST_HEADERS:User-Agent "@rx ^.*$" "id:901318,phase:1,pass,t:none,t:sha1,t:hexEncode,nolog,setvar:\'tx.ua_hash=%{MATCHED_VAR}\'"',
  'SecAction "id:901321,phase:1,pass,t:none,nolog,initcol:global=global,initcol:ip=%{remote_addr}_%{tx.ua_hash}"',
  'SecRule TX:enforce_bodyproc_urlencoded "@eq 1" \\',
  '    "id:901350,phase:1,pass,nolog,chain"',
  '    SecRule REQBODY_PROCESSOR "!@rx (?:URLENCODED|MULTIPART|XML|JSON)" \\',
  '        "ctl:requestBodyProcessor=URLENCODED"',
  'SecRule TX:sampling_percentage "@eq 100" "id:901400,phase:1,pass,nolog,skipAfter:END-SAMPLING"',
  'SecRule UNIQUE_ID "@rx ^." "id:901410,phase:1,pass,t:sha1,t:hexEncode,nolog"',
  'SecMarker "END-SAMPLING"',
  'SecRule TX:executing_paranoia_level "@lt %{tx.paranoia_level}" "id:901500,phase:1,deny,status:500,log"',
].join('\n');

const file = (name: string, text: string) => ({ name, text });
const REPUTATION = file(
  'REQUEST-910-IP-REPUTATION.conf',
  [
    'SecRule IP:PREVIOUS_RBL_CHECK "@eq 1" "id:910120,phase:2,pass,nolog,skipAfter:END-RBL-LOOKUP"',
    'SecMarker "END-RBL-LOOKUP"',
  ].join('\n'),
);
const DOS = file(
  'REQUEST-912-DOS-PROTECTION.conf',
  'SecRule &TX:dos_burst_time_slice "@eq 0" "id:912100,phase:1,pass,nolog,skipAfter:END-DOS-PROTECTION-CHECKS"\nSecMarker "END-DOS-PROTECTION-CHECKS"',
);
const CORRELATION = file(
  'RESPONSE-980-CORRELATION.conf',
  'SecRule TX:INBOUND_ANOMALY_SCORE "@ge %{tx.inbound_anomaly_score_threshold}" "id:980130,phase:5,pass,log"',
);
const BLOCKING = file(
  'REQUEST-949-BLOCKING-EVALUATION.conf',
  [
    'SecRule TX:PARANOIA_LEVEL "@ge 1" "id:949060,phase:2,pass,nolog"',
    'SecRule TX:PARANOIA_LEVEL "@ge 2" "id:949061,phase:2,pass,nolog"',
    'SecMarker "BEGIN-REQUEST-BLOCKING-EVAL"',
    'SecRule IP:REPUT_BLOCK_FLAG "@eq 1" "id:949100,phase:2,deny,log,chain"',
    '    SecRule TX:DO_REPUT_BLOCK "@eq 1" "setvar:\'tx.inbound_anomaly_score=%{tx.anomaly_score}\'"',
    'SecRule TX:ANOMALY_SCORE "@ge %{tx.inbound_anomaly_score_threshold}" "id:949110,phase:2,deny,log"',
  ].join('\n'),
);
const LEAKAGES = file(
  'RESPONSE-950-DATA-LEAKAGES.conf',
  [
    'SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 2" "id:950013,phase:3,pass,nolog,skipAfter:END-RESPONSE-950"',
    'SecRule RESPONSE_BODY "@rx (?:<(?:TITLE>Index of.*?<H|title>Index of.*?<h)1>)" \\',
    '    "id:950130,\\',
    '    phase:4,\\',
    '    block"',
    'SecMarker "END-RESPONSE-950"',
  ].join('\n'),
);
const MULTIPART = file(
  'REQUEST-922-MULTIPART-ATTACK.conf',
  [
    'SecRule MULTIPART_PART_HEADERS "@rx ^content-type\\s*:\\s*(.*)$" "id:922150,phase:2,pass,capture,nolog"',
    'SecRule TX:/MULTIPART_HEADERS_CONTENT_TYPES_*/ "!@rx ^text/plain$" \\',
    '    "id:922110,\\',
    '    phase:2,\\',
    '    block"',
    'SecRule MULTIPART_PART_HEADERS "@rx content-transfer-encoding:(.*)" "id:922120,phase:2,block"',
  ].join('\n'),
);
const SCANNERS = file(
  'REQUEST-913-SCANNER-DETECTION.conf',
  'SecRule REQUEST_HEADERS:User-Agent "@pmFromFile scanners-user-agents.data" "id:913100,phase:2,block,setvar:\'ip.reput_block_flag=1\'"',
);
const INIT_FILE = file('REQUEST-901-INITIALIZATION.conf', INIT);
/** The cut of these files beside 901, which names the release; 901 itself left out of the answer. */
const cutBeside = (files: { name: string; text: string }[], node = NODE) =>
  cutCrsCopy([INIT_FILE, ...files], node).filter((kept) => kept.name !== INIT_FILE.name);
const ALL = [INIT_FILE, REPUTATION, DOS, SCANNERS, MULTIPART, BLOCKING, LEAKAGES, CORRELATION];

describe('the CRS rules a node’s settings make no-ops', () => {
  it('leaves out IP reputation, DoS protection and correlation unless a setting turns them on', () => {
    expect(names(cutCrsCopy(ALL, NODE))).toEqual([
      'REQUEST-901-INITIALIZATION.conf',
      'REQUEST-913-SCANNER-DETECTION.conf',
      'REQUEST-922-MULTIPART-ATTACK.conf',
      'REQUEST-949-BLOCKING-EVALUATION.conf',
    ]);
    const settings = 'SecAction "id:900400,phase:1,pass,nolog,setvar:TX.DOS_BURST_TIME_SLICE=60"';
    expect(names(cutCrsCopy(ALL, { ...NODE, settings }))).toContain('REQUEST-912-DOS-PROTECTION.conf');
    const commented = `# ${settings}`;
    expect(names(cutCrsCopy(ALL, { ...NODE, settings: commented }))).not.toContain('REQUEST-912-DOS-PROTECTION.conf');
    const reputation = 'SecAction "id:900500,phase:1,pass,nolog,setvar:tx.block_search_ip=1"';
    const copy = cutCrsCopy(ALL, { ...NODE, settings: reputation });
    expect(names(copy)).toContain('REQUEST-910-IP-REPUTATION.conf');
    // 910 reads the IP collection: 901 keeps opening it.
    expect(ids(copy[0]?.text)).toEqual(expect.arrayContaining([901318, 901321]));
  });

  it('leaves out phase 4 rules while response bodies are not read, and a file left with paranoia checks only', () => {
    expect(names(cutBeside([LEAKAGES]))).toEqual([]);
    expect(cutBeside([LEAKAGES], { ...NODE, responseBodyAccess: true })).toEqual([LEAKAGES]);
  });

  it('sets 901’s defaults in one SecAction, but those a setting names, the paranoia levels and excluded rules', () => {
    const init = (node: CrsNode) => cutCrsCopy([INIT_FILE], node)[0]?.text ?? '';
    const text = init(NODE);
    expect(ids(text)).toEqual([901001, DEFAULTS_RULE_ID, 901120]);
    expect(text).toContain(
      `SecAction "id:${DEFAULTS_RULE_ID},phase:1,pass,nolog,t:none,setvar:'tx.inbound_anomaly_score_threshold=5',setvar:'tx.allowed_methods=GET HEAD POST OPTIONS'"`,
    );
    expect(text).toContain('# a comment between the defaults');
    const settings = 'SecAction "id:900200,phase:1,pass,nolog,setvar:\'tx.allowed_methods=GET POST\'"';
    expect(ids(init({ ...NODE, settings }))).toEqual([901001, DEFAULTS_RULE_ID, 901120, 901160]);
    expect(ids(init({ ...NODE, excluded: new Set([901100]) }))).toEqual([901001, 901100, 901120, DEFAULTS_RULE_ID]);
    expect(ids(init({ ...NODE, excluded: new Set([DEFAULTS_RULE_ID]) }))).toEqual([901001, 901100, 901120, 901160]);
  });

  it('keeps sampling, forced URL-encoded bodies and the level check when a setting names them', () => {
    const init = (settings: string) => ids(cutCrsCopy([INIT_FILE], { ...NODE, settings })[0]?.text);
    expect(init('')).not.toEqual(expect.arrayContaining([901350]));
    expect(init('SecAction "id:900400,setvar:tx.sampling_percentage=50"')).toEqual(
      expect.arrayContaining([901400, 901410]),
    );
    expect(init('SecAction "id:900010,setvar:tx.enforce_bodyproc_urlencoded=1"')).toContain(901350);
    expect(init('SecAction "id:900000,setvar:tx.paranoia_level=2"')).toContain(901500);
    // The chained rule of 901350 goes with it.
    const text = cutCrsCopy([INIT_FILE], NODE)[0]?.text ?? '';
    expect(text).not.toContain('REQBODY_PROCESSOR');
    expect(text).toContain('SecMarker "END-SAMPLING"');
  });

  it('skips 922110 when there are no multipart part headers, the only source of the variables it reads', () => {
    const text = cutBeside([MULTIPART])[0]?.text ?? '';
    expect(ids(text)).toEqual([922150, MULTIPART_GUARD_ID, 922110, 922120]);
    expect(text).toContain(
      `SecRule &MULTIPART_PART_HEADERS "@eq 0" "id:${MULTIPART_GUARD_ID},phase:2,pass,t:none,nolog,skipAfter:RAMPART-END-922110"`,
    );
    expect(text.indexOf('SecMarker "RAMPART-END-922110"')).toBeGreaterThan(text.indexOf('id:922110'));
    expect(text.indexOf('SecMarker "RAMPART-END-922110"')).toBeLessThan(text.indexOf('id:922120'));
  });

  it('leaves out 949’s sums above the highest level and the reputation block nothing turns on', () => {
    expect(ids(cutBeside([BLOCKING])[0]?.text)).toEqual([949060, 949110]);
    expect(ids(cutBeside([BLOCKING], { ...NODE, levels: { lowest: 1, highest: 2 } })[0]?.text)).toEqual([
      949060, 949061, 949110,
    ]);
  });

  it('leaves out an optional check waiting for a setting that neither a setting nor the CRS sets', () => {
    const protocol = file(
      'REQUEST-920-PROTOCOL-ENFORCEMENT.conf',
      [
        'SecRule &TX:MAX_NUM_ARGS "@eq 1" "id:920380,phase:2,block,chain"',
        '    SecRule &ARGS "@gt %{tx.max_num_args}" "t:none"',
        // Set by 901 (a default): kept.
        'SecRule TX:ALLOWED_METHODS "@eq 1" "id:920998,phase:2,block"',
      ].join('\n'),
    );
    expect(ids(cutBeside([protocol])[0]?.text)).toEqual([920998]);
    expect(cutBeside([protocol])[0]?.text).not.toContain('&ARGS');
    const settings = 'SecAction "id:900300,phase:1,pass,nolog,setvar:tx.max_num_args=255"';
    expect(ids(cutBeside([protocol], { ...NODE, settings })[0]?.text)).toEqual([920380, 920998]);
  });

  it('keeps a file another file skips to, and files that are not the CRS’s own', () => {
    const skipper = file(
      'REQUEST-911-METHOD-ENFORCEMENT.conf',
      'SecRule ARGS "@rx x" "id:911900,phase:1,pass,skipAfter:END-DOS-PROTECTION-CHECKS"',
    );
    expect(names(cutBeside([DOS, skipper]))).toEqual(
      ['REQUEST-911-METHOD-ENFORCEMENT.conf', 'REQUEST-912-DOS-PROTECTION.conf'].sort(),
    );
    const own = file(
      'RESPONSE-999-EXCLUSION-RULES-AFTER-CRS.conf',
      'SecRule RESPONSE_BODY "@rx x" "id:1,phase:4,pass"',
    );
    expect(cutBeside([own])).toEqual([own]);
  });
});

describe('the CRS release', () => {
  it('cuts nothing from a CRS other than 3.3, whose rules were not checked', () => {
    const other = file('REQUEST-901-INITIALIZATION.conf', INIT.replace('OWASP_CRS/3.3.4', 'OWASP_CRS/4.0.0'));
    const files = [other, DOS, CORRELATION];
    expect(cutCrsCopy(files, NODE)).toEqual(files);
  });
});

describe('rule file helpers', () => {
  it('removes a rule with its chained rules, indented or not', () => {
    const text = [
      'SecRule A "@eq 1" "id:1,chain"',
      '    SecRule B "@eq 1" \\',
      '        "t:none"',
      '# between',
      'SecRule C "@eq 1" "id:2"',
    ].join('\n');
    expect(removeRules(text, new Set([1]))).toBe('# between\nSecRule C "@eq 1" "id:2"');
    expect(removeRules(text, new Set([2]))).toBe(text.split('\n').slice(0, 4).join('\n'));
  });

  it('finds a setting in any case, never in a comment, and assumes an Include may set anything', () => {
    expect(mentions('SecAction "setvar:TX.Sampling_Percentage=50"', 'sampling_percentage')).toBe(true);
    expect(mentions('  # SecAction "setvar:tx.sampling_percentage=50"', 'sampling_percentage')).toBe(false);
    expect(mentions('Include /etc/modsecurity/more.conf', 'sampling_percentage')).toBe(true);
  });
});
