import { DEFAULT_STATIC_EXTS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { RenderRefusal } from './quote.ts';
import { renderWafRules, WafProfiles, type WafSettings, wafStaticExts } from './waf.ts';

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
    expect(() => renderWafRules([], CRS, '/var/log/a b.log')).toThrow(/absolute path/);
    expect(() => renderWafRules([], { ...CRS, rulesDir: 'rules' }, '/a.log')).toThrow(/absolute path/);
  });
});
