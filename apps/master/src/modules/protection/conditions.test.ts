import type { Condition } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { checkCondition, checkConditions, cidrProblem, regexProblem, repeatsRepetition } from './conditions.ts';

describe('condition rules', () => {
  it('accepts IPv4 and IPv6 addresses and ranges, and refuses what only looks like one', () => {
    for (const ok of ['203.0.113.7', '203.0.113.0/24', '0.0.0.0/0', '2001:db8::1', '2001:db8::/32', '::/0']) {
      expect(cidrProblem(ok), ok).toBeNull();
    }
    expect(cidrProblem('10.0.0.256')).toBe('10.0.0.256 is not an IP address or CIDR range');
    expect(cidrProblem(':::')).toBe('::: is not an IP address or CIDR range');
    expect(cidrProblem('1:2')).toBe('1:2 is not an IP address or CIDR range');
    expect(cidrProblem('10.0.0.0/33')).not.toBeNull();
    expect(cidrProblem('2001:db8::/129')).not.toBeNull();
    expect(cidrProblem('10.0.0.0/8/8')).not.toBeNull();
    expect(cidrProblem('fe80::1%eth0')).not.toBeNull();
  });

  it('takes regular expressions that compile and refuses nested repetition', () => {
    for (const ok of [
      '^/api/',
      '\\.(php|asp)$',
      '(ab)+',
      '[a+]+',
      '\\(a+\\)+',
      '(?:foo|bar){2}',
      'a{2,5}b*',
      '(?i)(sqlmap|nikto)',
      '(?im)^curl',
    ]) {
      expect(regexProblem(ok), ok).toBeNull();
    }
    expect(regexProblem('(unclosed')).toBe('(unclosed is not a valid regular expression');
    // PCRE's options only lead the pattern; anywhere else, or an option the edge does not take, is refused.
    for (const bad of ['a(?i)b', '(?x)a b', '(?i)(unclosed']) expect(regexProblem(bad), bad).not.toBeNull();
    for (const bad of ['(a+)+', '(\\w*)*b', '(a|b+){2,}', '((ab)*c)+', '(x{1,9})*']) {
      expect(repeatsRepetition(bad), bad).toBe(true);
    }
    expect(regexProblem('(a+)+$')).toBe(
      '(a+)+$ repeats a repeated group (like (a+)+), which can take exponential time',
    );
    expect(regexProblem('a'.repeat(257))).toBe('a regular expression has at most 256 characters');
  });

  it('takes country codes compared with equals, and names the value or op it refuses', () => {
    const country: Condition = { field: 'country', op: 'equals', values: ['CN', 'US', 'XK'], negate: false };
    expect(() => checkCondition(country, 'condition')).not.toThrow();
    expect(() => checkCondition({ ...country, values: ['CN', 'cn'] }, 'condition')).toThrow(
      'condition/values/1: cn is not an ISO 3166-1 alpha-2 country code',
    );
    expect(() => checkCondition({ ...country, values: ['ZZ'] }, 'entries/0/condition')).toThrow(
      'entries/0/condition/values/0: ZZ is not an ISO 3166-1 alpha-2 country code',
    );
    expect(() => checkCondition({ ...country, op: 'prefix' }, 'conditions/1')).toThrow(
      'conditions/1/op: field country compares with equals',
    );
  });

  it('names the condition and the value it refuses', () => {
    const ip: Condition = { field: 'ip', op: 'cidr', values: ['10.0.0.1', 'nope'], negate: false };
    expect(() => checkConditions([ip], 'conditions')).toThrow('conditions/0/values/1: nope is not an IP address');
    expect(() => checkConditions([{ ...ip, op: 'equals' }], 'conditions')).toThrow(
      'conditions/0/op: field ip compares with cidr',
    );
    const path: Condition = { field: 'path', op: 'cidr', values: ['/'], negate: false };
    expect(() => checkCondition(path, 'entries/2/condition')).toThrow(
      'entries/2/condition/op: cidr is for field ip only',
    );
    const header: Condition = { field: 'header', op: 'equals', values: ['x'], negate: false };
    expect(() => checkConditions([header], 'c')).toThrow('c/0/header: is required for field header');
    expect(() => checkConditions([{ ...path, op: 'equals', header: 'X-A' }], 'c')).toThrow(
      'c/0/header: is only for field header',
    );
    expect(() => checkConditions([{ ...header, header: 'X-Token' }], 'c')).not.toThrow();
  });
});
