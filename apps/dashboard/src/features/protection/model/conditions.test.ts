import { CreateCcMatchBody } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  type ConditionRow,
  checkConditionCount,
  checkHeader,
  checkOp,
  checkValues,
  conditionProblem,
  conditionRow,
  opAfterFieldChange,
  opsFor,
  toCondition,
} from './conditions.ts';
import { matchBody } from './matchPayload.ts';

const matchShape = Compile(CreateCcMatchBody);
const row = (change: Partial<ConditionRow>): ConditionRow => ({
  field: 'path',
  op: 'prefix',
  valuesText: '/admin',
  negate: false,
  ...change,
});

describe('conditions', () => {
  it('compare an IP by CIDR only and every other field as text', () => {
    expect(opsFor('ip')).toEqual(['cidr']);
    expect(opsFor('user_agent')).toEqual(['equals', 'prefix', 'contains', 'regex']);
    expect(checkOp('ip', 'equals')).toEqual({ key: 'op' });
    expect(checkOp('path', 'cidr')).toEqual({ key: 'op' });
    expect(checkOp('header', 'regex')).toBeUndefined();
  });

  it('compare a country by its code only, in either case, and send it in upper case', () => {
    expect(opsFor('country')).toEqual(['equals']);
    expect(checkOp('country', 'prefix')).toEqual({ key: 'op' });
    expect(opAfterFieldChange('country', 'regex')).toBe('equals');
    expect(checkValues('equals', 'CN\nus\nXK', 'country')).toBeUndefined();
    expect(checkValues('equals', 'CN\nChina', 'country')).toEqual({ key: 'country', values: { value: 'China' } });
    expect(checkValues('equals', 'ZZ', 'country')?.key).toBe('country');
    const country = row({ field: 'country', op: 'equals', valuesText: 'cn\nUS' });
    expect(conditionProblem(country)).toBeUndefined();
    expect(toCondition(country)).toEqual({ field: 'country', op: 'equals', values: ['CN', 'US'], negate: false });
    expect(matchShape.Check(matchBody({ name: 'by country', conditions: [country] }))).toBe(true);
  });

  it('keep the op when the field changes and it still applies, else take the first that does', () => {
    expect(opAfterFieldChange('ip', 'prefix')).toBe('cidr');
    expect(opAfterFieldChange('path', 'cidr')).toBe('equals');
    expect(opAfterFieldChange('query', 'contains')).toBe('contains');
  });

  it('take values one per line, trimmed, and need 1 to 1000 of them', () => {
    expect(toCondition(row({ valuesText: ' /a \n\n/b\n' })).values).toEqual(['/a', '/b']);
    expect(checkValues('prefix', ' \n ')).toEqual({ key: 'valuesCount', values: { max: 1000 } });
    expect(checkValues('prefix', Array.from({ length: 1001 }, (_, i) => `/p${i}`).join('\n'))?.key).toBe('valuesCount');
  });

  it('refuse values that are not printable ASCII or longer than 256 characters, naming the first', () => {
    expect(checkValues('contains', 'ok\nbad\u0007bell')).toEqual({ key: 'value', values: { value: 'bad\u0007bell' } });
    expect(checkValues('equals', 'café')?.key).toBe('value');
    expect(checkValues('equals', 'x'.repeat(257))).toEqual({ key: 'value', values: { value: `${'x'.repeat(40)}…` } });
    expect(checkValues('equals', 'x'.repeat(256))).toBeUndefined();
  });

  it('need CIDR ranges for cidr, IPv6 included, as the master parses them', () => {
    expect(checkValues('cidr', '203.0.113.0/24\n2001:db8::/32\n198.51.100.7')).toBeUndefined();
    expect(checkValues('cidr', '10.0.0.0/33')).toEqual({ key: 'cidr', values: { value: '10.0.0.0/33' } });
    expect(checkValues('cidr', 'example.com')?.key).toBe('cidr');
    // The contracts pattern shapes IPv6 loosely; the master (and the URL parser) refuse this one.
    expect(checkValues('cidr', ':::::')).toEqual({ key: 'cidr', values: { value: ':::::' } });
  });

  it('refuse a regex that does not compile', () => {
    expect(checkValues('regex', '^/api/v[0-9]+/')).toBeUndefined();
    expect(checkValues('regex', '(?i)(sqlmap|nikto)')).toBeUndefined();
    expect(checkValues('regex', 'a(?i)b')).toEqual({ key: 'regex', values: { value: 'a(?i)b' } });
    expect(checkValues('regex', '([a-z]')).toEqual({ key: 'regex', values: { value: '([a-z]' } });
  });

  it('need a header name for the header field only', () => {
    expect(checkHeader('header', 'X-Api-Key')).toBeUndefined();
    expect(checkHeader('header', undefined)).toEqual({ key: 'header' });
    expect(checkHeader('header', 'X Bad')).toEqual({ key: 'header' });
    expect(checkHeader('path', undefined)).toBeUndefined();
    expect(toCondition(row({ field: 'path', header: 'X-Left-Over' }))).not.toHaveProperty('header');
    expect(toCondition(row({ field: 'header', op: 'equals', header: ' X-Key ' })).header).toBe('X-Key');
  });

  it('allow 1 to 16 conditions in a match', () => {
    expect(checkConditionCount(0)).toEqual({ key: 'conditions', values: { max: 16 } });
    expect(checkConditionCount(16)).toBeUndefined();
    expect(checkConditionCount(17)?.key).toBe('conditions');
  });

  it('round-trip a stored condition through the editor', () => {
    const stored = {
      field: 'header' as const,
      op: 'regex' as const,
      values: ['^bot', 'crawl'],
      header: 'X-UA',
      negate: true,
    };
    expect(toCondition(conditionRow(stored))).toEqual(stored);
  });

  it('build match bodies the contracts accept, and find the problem of a hostile row first', () => {
    const body = matchBody({
      name: ' api ',
      conditions: [row({}), row({ field: 'ip', op: 'cidr', valuesText: '10.0.0.0/8', negate: true })],
    });
    expect(body.name).toBe('api');
    expect(matchShape.Check(body)).toBe(true);
    expect(matchBody({ name: 'x', conditions: [row({})], system: true }).system).toBe(true);
    expect(matchBody({ name: 'x', conditions: [row({})], system: false })).not.toHaveProperty('system');
    const hostile = row({ valuesText: '/ok\n/a\tb' });
    expect(conditionProblem(hostile)?.key).toBe('value');
    expect(matchShape.Check(matchBody({ name: 'x', conditions: [hostile] }))).toBe(false);
  });
});
