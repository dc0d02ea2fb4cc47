import { CreateCcFilterBody } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import type { FilterRow } from '../api.ts';
import { checkFilterNumber, FILTER_RANGES, filterBody, filterDraft, NEW_FILTER } from './filterPayload.ts';

const filterShape = Compile(CreateCcFilterBody);

describe('filter payloads', () => {
  it('send only the settings of the chosen type', () => {
    expect(filterBody({ ...NEW_FILTER, name: ' slow down ', type: 'rate', requests: 100, seconds: 10 })).toEqual({
      name: 'slow down',
      type: 'rate',
      requests: 100,
      seconds: 10,
      per: 'ip',
    });
    expect(filterBody({ ...NEW_FILTER, name: 'js', type: 'js' })).toEqual({
      name: 'js',
      type: 'js',
      valid_seconds: 3600,
    });
    expect(filterBody({ ...NEW_FILTER, name: 'wait', type: 'delay', delay_ms: 250 })).toEqual({
      name: 'wait',
      type: 'delay',
      delay_ms: 250,
    });
    for (const type of ['rate', 'js', 'redirect', 'captcha', 'delay'] as const) {
      expect(filterShape.Check(filterBody({ ...NEW_FILTER, name: type, type }))).toBe(true);
    }
  });

  it('take the ranges from the contracts', () => {
    expect(FILTER_RANGES).toEqual({
      requests: { min: 1, max: 1_000_000 },
      seconds: { min: 1, max: 86_400 },
      valid_seconds: { min: 60, max: 604_800 },
      delay_ms: { min: 1, max: 10_000 },
    });
    expect(checkFilterNumber('valid_seconds', 59)).toEqual({ key: 'integer', values: { min: 60, max: 604_800 } });
    expect(checkFilterNumber('delay_ms', 1.5)?.key).toBe('integer');
    expect(checkFilterNumber('requests', null)?.key).toBe('integer');
    expect(checkFilterNumber('seconds', 60)).toBeUndefined();
  });

  it('edit a stored filter over the defaults, so switching its type starts from sensible values', () => {
    const stored: FilterRow = {
      id: 4,
      user_id: 2,
      name: 'captcha',
      type: 'captcha',
      valid_seconds: 600,
      created_at: '2026-11-22T00:00:00Z',
      updated_at: '2026-11-22T00:00:00Z',
    };
    const draft = filterDraft(stored);
    expect(draft).toMatchObject({ name: 'captcha', type: 'captcha', valid_seconds: 600, requests: 60, per: 'ip' });
    expect(filterBody({ ...draft, type: 'rate' })).toEqual({
      name: 'captcha',
      type: 'rate',
      requests: 60,
      seconds: 60,
      per: 'ip',
    });
  });
});
