import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { PROTECTION_LOCALES } from '../locales/bundle.ts';
import { isoTime, knownKind, ruleIds } from './blockLog.ts';
import { conditionSummary, filterSummary } from './summary.ts';

const { t } = createI18n(COMMON_LOCALES, 'en-US', [PROTECTION_LOCALES]);
const times = { id: 1, user_id: 0, created_at: '', updated_at: '' };

describe('list summaries', () => {
  it('describe a condition in a line, with at most three values', () => {
    expect(
      conditionSummary(t, { field: 'path', op: 'prefix', values: ['/a', '/b', '/c', '/d', '/e'], negate: true }),
    ).toBe('Path not starts with /a, /b, /c (+2)');
    expect(conditionSummary(t, { field: 'header', header: 'X-Key', op: 'equals', values: ['1'], negate: false })).toBe(
      'Header X-Key equals 1',
    );
  });

  it('describe a filter by its type', () => {
    expect(filterSummary(t, { ...times, name: 'r', type: 'rate', requests: 10, seconds: 60, per: 'ip_url' })).toBe(
      '10 requests in 60 s per client IP and URL',
    );
    expect(filterSummary(t, { ...times, name: 'c', type: 'captcha', valid_seconds: 3600 })).toBe('cookie valid 3600 s');
    expect(filterSummary(t, { ...times, name: 'd', type: 'delay', delay_ms: 500 })).toBe('wait 500 ms');
  });

  it('read block log entries', () => {
    expect(ruleIds({ group: 3, match: 7, filter: 0 })).toBe('group 3 · match 7');
    expect(knownKind('rate')).toBe('rate');
    expect(knownKind('')).toBeUndefined();
    expect(isoTime(Date.UTC(2026, 10, 22, 10, 0, 0, 750))).toBe('2026-11-22T10:00:00Z');
    expect(isoTime(null)).toBeUndefined();
  });
});
