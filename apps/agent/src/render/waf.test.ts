import { DEFAULT_STATIC_EXTS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { RenderRefusal } from './quote.ts';
import { renderCrsCopy, renderWafRules, trimCrsFile, WafProfiles, type WafSettings, wafStaticExts } from './waf.ts';

const CRS = {
  setup: '/etc/modsecurity/crs/crs-setup.conf',
  rulesDir: '/usr/share/modsecurity-crs/rules',
  unicodeMap: null,
};

describe('WAF profiles', () => {
  it('shares one profile between sites with the same settings, whatever the order of their exclusions', () => {
    const profiles = new WafProfiles();
    expect(profiles.numberOf({ mode: 'off', paranoia: 3, exclusions: [1] })).toBe(0);
    expect(profiles.numberOf({ mode: 'block', paranoia: 1, exclusions: [942100, 920350] })).toBe(1);
    expect(profiles.numberOf({ mode: 'block', paranoia: 1, exclusions: [920350, 942100, 920350] })).toBe(1);
    expect(profiles.numberOf({ mode: 'detect', paranoia: 1, exclusions: [942100, 920350] })).toBe(2);
    expect(profiles.numberOf({ mode: 'block', paranoia: 2, exclusions: [] })).toBe(3);
    expect(profiles.list().map((p) => p.exclusions)).toEqual([[920350, 942100], [920350, 942100], []]);
  });

  it('keeps one profile whatever the static file settings are', () => {
    const profiles = new WafProfiles();
    const base: WafSettings = { mode: 'block', paranoia: 1, exclusions: [] };
    expect(profiles.numberOf(base)).toBe(1);
    expect(profiles.numberOf({ ...base, inspect_static: true })).toBe(1);
    expect(profiles.numberOf({ ...base, inspect_static: false, static_exts: ['png'] })).toBe(1);
    expect(profiles.size).toBe(1);
  });

  it('lists the extensions that skip the engine: the defaults, the site’s own, none when it inspects them', () => {
    const base: WafSettings = { mode: 'block', paranoia: 1, exclusions: [] };
    expect(wafStaticExts(base)).toEqual([...DEFAULT_STATIC_EXTS]);
    expect(wafStaticExts({ ...base, inspect_static: false, static_exts: ['png', 'css', 'png'] })).toEqual([
      'png',
      'css',
    ]);
    expect(wafStaticExts({ ...base, inspect_static: true })).toBe(null);
    expect(wafStaticExts({ ...base, static_exts: [] })).toBe(null);
    expect(wafStaticExts({ ...base, mode: 'off' })).toBe(null);
    expect(() => wafStaticExts({ ...base, static_exts: ['PNG'] })).toThrow(/waf.static_exts\[0\]/);
    expect(() => wafStaticExts({ ...base, static_exts: ['png', 'a.b'] })).toThrow(/waf.static_exts\[1\]/);
    expect(() => wafStaticExts({ ...base, static_exts: ['abcdefghijk'] })).toThrow(RenderRefusal);
    const many = Array.from({ length: 101 }, (_, i) => `e${i}`);
    expect(() => wafStaticExts({ ...base, static_exts: many })).toThrow(/at most 100/);
  });

  it('refuses values the schema would not let through', () => {
    const profiles = new WafProfiles();
    expect(() => profiles.numberOf({ mode: 'block', paranoia: 5, exclusions: [] })).toThrow(RenderRefusal);
    expect(() => profiles.numberOf({ mode: 'block', paranoia: 1, exclusions: [0] })).toThrow(/waf.exclusions\[0\]/);
    const hostile = { mode: 'block; Include /etc/passwd', paranoia: 1, exclusions: [] } as never;
    expect(() => profiles.numberOf(hostile)).toThrow(/off, detect or block/);
  });

  it('renders one phase-1 rule per profile before the CRS, and refuses odd paths', () => {
    const rules = renderWafRules(
      [
        { number: 1, mode: 'block', paranoia: 3, exclusions: [942100] },
        { number: 2, mode: 'detect', paranoia: 1, exclusions: [] },
      ],
      CRS,
      '/var/lib/rampart/logs/waf-audit.log',
    );
    const lines = rules.split('\n');
    const profile = lines.findIndex((line) => line.startsWith('SecRule UNIQUE_ID "@beginsWith w1."'));
    expect(lines[profile]).toContain('setvar:tx.paranoia_level=3');
    expect(lines[profile]).toContain('ctl:ruleRemoveById=942100');
    expect(lines[profile]).not.toContain('DetectionOnly');
    expect(lines[profile + 1]).toContain('ctl:ruleEngine=DetectionOnly');
    expect(profile).toBeLessThan(lines.indexOf('Include /usr/share/modsecurity-crs/rules/*.conf'));
    expect(rules).not.toContain('SecUnicodeMapFile');
    // Response bodies are neither inspected nor copied: the phase 4 rules are left out of the copy.
    expect(lines).toContain('SecResponseBodyAccess Off');
    expect(lines).toContain('SecResponseBodyMimeType application/x-rampart-never-read');
    // Audit entries only for transactions a rule logged, with no status pattern to compile for each.
    expect(lines).toContain('SecAuditEngine RelevantOnly');
    expect(rules).not.toContain('SecAuditLogRelevantStatus');
    expect(() => renderWafRules([], CRS, '/var/log/a b.log')).toThrow(/absolute path/);
    expect(() => renderWafRules([], { ...CRS, rulesDir: 'rules' }, '/a.log')).toThrow(/absolute path/);
  });

  it('loads its own copy of the CRS when the rule files were read, and the node’s directory otherwise', () => {
    const profiles = [{ number: 1, mode: 'block' as const, paranoia: 1, exclusions: [] }];
    const rules = renderWafRules(profiles, CRS, '/a.log', '/tree/waf/crs');
    expect(rules).toContain('Include /tree/waf/crs/*.conf');
    expect(rules).not.toContain('Include /usr/share/modsecurity-crs/rules/*.conf');
    expect(renderCrsCopy(profiles, CRS)).toBe(null);
    const read = { ...CRS, setupText: '', ruleFiles: [{ name: 'REQUEST-911-METHOD-ENFORCEMENT.conf', text: METHODS }] };
    expect(renderCrsCopy(profiles, read)?.map((file) => file.name)).toEqual(['REQUEST-911-METHOD-ENFORCEMENT.conf']);
    const correlation = { name: 'RESPONSE-980-CORRELATION.conf', text: 'SecAction "id:980115,phase:5,pass,nolog"' };
    const init = {
      name: 'REQUEST-901-INITIALIZATION.conf',
      text: 'SecComponentSignature "OWASP_CRS/3.3.4"\nSecAction "id:901200,phase:1,pass,nolog"',
    };
    const release = { ...read, ruleFiles: [init, ...read.ruleFiles, correlation] };
    expect(renderCrsCopy(profiles, release)?.map((file) => file.name)).toEqual([
      'REQUEST-901-INITIALIZATION.conf',
      'REQUEST-911-METHOD-ENFORCEMENT.conf',
    ]);
    const hostile = { ...read, ruleFiles: [{ name: '../x.conf', text: '' }] };
    expect(() => renderCrsCopy(profiles, hostile)).toThrow(RenderRefusal);
  });
});

/** The shape of every CRS 3.3 rule file with paranoia levels (REQUEST-911, shortened). */
const METHODS = [
  'SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 1" "id:911011,phase:1,pass,nolog,skipAfter:END-REQUEST-911"',
  'SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 1" "id:911012,phase:2,pass,nolog,skipAfter:END-REQUEST-911"',
  'SecRule REQUEST_METHOD "!@within %{tx.allowed_methods}" \\',
  '    "id:911100,phase:1,block"',
  'SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 2" "id:911013,phase:1,pass,nolog,skipAfter:END-REQUEST-911"',
  'SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 2" "id:911014,phase:2,pass,nolog,skipAfter:END-REQUEST-911"',
  'SecRule ARGS "@pmFromFile level-2.data" "id:911200,phase:2,block"',
  'SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 3" "id:911015,phase:1,pass,nolog,skipAfter:END-REQUEST-911"',
  'SecRule TX:EXECUTING_PARANOIA_LEVEL "@lt 3" "id:911016,phase:2,pass,nolog,skipAfter:END-REQUEST-911"',
  'SecRule ARGS "@rx three" "id:911300,phase:2,block"',
  'SecMarker "END-REQUEST-911"',
  'SecRule ARGS "@pmFromFile after.data" "id:911900,phase:2,block"',
].join('\n');

describe('the CRS copy a tree loads', () => {
  const source = { rulesDir: '/usr/share/modsecurity-crs/rules', setupText: '' };
  const trim = (lowest: number, highest: number, text = METHODS) =>
    trimCrsFile({ name: 'REQUEST-911.conf', text }, { lowest, highest }, source);
  const ids = (text: string | null) => [...(text ?? '').matchAll(/id:(\d+)/g)].map((match) => Number(match[1]));

  it('leaves out the checks that never skip and the levels no profile runs, keeping the rest in order', () => {
    expect(ids(trim(1, 1))).toEqual([911100, 911900]);
    expect(ids(trim(1, 2))).toEqual([911100, 911013, 911014, 911200, 911900]);
    expect(ids(trim(2, 2))).toEqual([911100, 911200, 911900]);
    expect(ids(trim(1, 4))).toEqual([911100, 911013, 911014, 911200, 911015, 911016, 911300, 911900]);
    expect(ids(trim(4, 4))).toEqual([911100, 911200, 911300, 911900]);
    expect(trim(1, 1)).toContain('SecMarker "END-REQUEST-911"');
  });

  it('names data files by absolute path, since the copy lives outside the rules directory', () => {
    expect(trim(1, 4)).toContain('"@pmFromFile /usr/share/modsecurity-crs/rules/level-2.data"');
    expect(trim(1, 1)).toContain('"@pmFromFile /usr/share/modsecurity-crs/rules/after.data"');
  });

  it('keeps a file whole when a cut would take a marker another rule may skip to, or a check is written otherwise', () => {
    const marker = METHODS.replace('SecRule ARGS "@rx three"', 'SecMarker "INSIDE"\nSecRule ARGS "@rx three"');
    expect(ids(trim(1, 1, marker))).toEqual(ids(marker));
    const odd = METHODS.replace('"@lt 3" "id:911015,phase:1,', '"@lt 3" "id:911015,phase:1,t:none,');
    expect(ids(trim(1, 1, odd))).toEqual(ids(odd));
  });

  it('leaves out an application exclusion file unless crs-setup.conf turns it on', () => {
    const wordpress = [
      'SecRule &TX:crs_exclusions_wordpress|TX:crs_exclusions_wordpress "@eq 0" \\',
      '    "id:9002000,phase:1,pass,t:none,nolog,skipAfter:END-WORDPRESS"',
      'SecRule REQUEST_FILENAME "@endsWith /wp-login.php" "id:9002100,phase:2,pass"',
      'SecMarker "END-WORDPRESS"',
    ].join('\n');
    const file = { name: 'REQUEST-903.9002-WORDPRESS-EXCLUSION-RULES.conf', text: wordpress };
    expect(trimCrsFile(file, { lowest: 1, highest: 1 }, source)).toBe(null);
    const commented = { ...source, setupText: '#SecAction "id:900130,setvar:tx.crs_exclusions_wordpress=1"' };
    expect(trimCrsFile(file, { lowest: 1, highest: 1 }, commented)).toBe(null);
    const on = {
      ...source,
      setupText: 'SecAction \\\n  "id:900130,phase:1,nolog,pass,t:none,\\\n  setvar:tx.crs_exclusions_wordpress=1"',
    };
    expect(trimCrsFile(file, { lowest: 1, highest: 1 }, on)).toBe(wordpress);
  });
});
