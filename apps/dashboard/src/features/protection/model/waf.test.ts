import { DEFAULT_STATIC_EXTS, SiteProtection } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  checkExclusions,
  checkStaticExts,
  staticExtList,
  wafRuleIds,
  wafSettings,
  wafValues,
  withExclusions,
} from './waf.ts';

describe('WAF rules from the block log', () => {
  it('reads the rule ids of a WAF entry, once each, and nothing from other details', () => {
    expect(wafRuleIds('rules 942100,942190,942100: SQL Injection Attack Detected via libinjection')).toEqual([
      942100, 942190,
    ]);
    expect(wafRuleIds('anomaly score: over the threshold')).toEqual([]);
    expect(wafRuleIds('entry 3')).toEqual([]);
    expect(wafRuleIds('rules 0,12345678,941100: x')).toEqual([941100]);
  });

  it('adds them to the site exclusions without repeats, within the limit', () => {
    expect(withExclusions([920350], [942100, 920350])).toEqual([920350, 942100]);
    const full = Array.from({ length: 200 }, (_, i) => 900_000 + i);
    expect(withExclusions(full, [900_001])).toEqual(full);
    expect(withExclusions(full, [942100])).toBe(null);
    expect(checkExclusions(withExclusions([1], [2, 3])!.join(' '))).toBeUndefined();
  });
});

describe('static files and the WAF', () => {
  const stored = { mode: 'block', paranoia: 1, exclusions: [942100] } as const;
  const WAF = Compile(SiteProtection.properties.waf);

  it('reads a site without the fields as: static files skip the WAF, with the default extensions', () => {
    const values = wafValues({ ...stored, exclusions: [942100] });
    expect(values.inspectStatic).toBe(false);
    expect(values.staticExts).toEqual([...DEFAULT_STATIC_EXTS]);
    // Saved untouched, nothing new is stored: the site keeps following the default list.
    expect(wafSettings(values)).toEqual({ mode: 'block', paranoia: 1, exclusions: [942100] });
    expect(wafSettings({ ...values, staticExts: [...DEFAULT_STATIC_EXTS].reverse() })).not.toHaveProperty(
      'static_exts',
    );
  });

  it('sends the switch when on and a list of its own when it differs, in a shape the contract takes', () => {
    const values = {
      ...wafValues({ ...stored, exclusions: [] }),
      inspectStatic: true,
      staticExts: ['.PNG', ' css ', 'png'],
    };
    const settings = wafSettings(values);
    expect(settings).toEqual({
      mode: 'block',
      paranoia: 1,
      exclusions: [],
      inspect_static: true,
      static_exts: ['png', 'css'],
    });
    expect(WAF.Check(settings)).toBe(true);
    expect(wafValues(settings)).toMatchObject({ inspectStatic: true, staticExts: ['png', 'css'] });
    expect(wafSettings({ ...values, staticExts: [] })).toMatchObject({ static_exts: [] });
  });

  it('takes extensions of 1 to 10 lower-case letters or digits, at most 100, like the contract', () => {
    expect(staticExtList(['.Png', 'png', ' ', 'woff2'])).toEqual(['png', 'woff2']);
    expect(checkStaticExts(['png', 'woff2', '7z'])).toBeUndefined();
    expect(checkStaticExts(['png', 'p-g'])).toEqual({ key: 'staticExt', values: { value: 'p-g' } });
    expect(checkStaticExts(['abcdefghijk'])?.key).toBe('staticExt');
    expect(checkStaticExts(['a.b'])?.key).toBe('staticExt');
    const many = Array.from({ length: 101 }, (_, i) => `e${i}`);
    expect(checkStaticExts(many)).toEqual({ key: 'staticExtsMax', values: { max: 100 } });
    expect(WAF.Check({ ...stored, exclusions: [], static_exts: many })).toBe(false);
    expect(WAF.Check({ ...stored, exclusions: [], static_exts: ['PNG'] })).toBe(false);
    expect(WAF.Check({ ...stored, exclusions: [], static_exts: ['abcdefghij'] })).toBe(true);
  });
});
