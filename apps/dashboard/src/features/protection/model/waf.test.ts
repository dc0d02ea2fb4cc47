import { describe, expect, it } from 'vitest';
import { checkExclusions, wafRuleIds, withExclusions } from './waf.ts';

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
