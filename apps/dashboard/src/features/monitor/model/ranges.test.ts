import { describe, expect, it } from 'vitest';
import { rangeQuery, refreshMs, withinRawLog } from './ranges.ts';

const NOW = Date.parse('2026-11-25T10:00:30.500Z');
const DAY_MS = 86_400_000;

describe('monitor ranges', () => {
  it('end a preset now, in whole seconds, and send a custom range as picked', () => {
    expect(rangeQuery({ preset: '15m' }, NOW)).toEqual({ from: '2026-11-25T09:45:30Z', to: '2026-11-25T10:00:30Z' });
    expect(rangeQuery({ preset: 'custom', fromMs: NOW - DAY_MS, toMs: NOW }, NOW)).toEqual({
      from: '2026-11-24T10:00:30Z',
      to: '2026-11-25T10:00:30Z',
    });
  });

  it('refresh short presets only', () => {
    expect(refreshMs({ preset: '15m' })).toBe(10_000);
    expect(refreshMs({ preset: '24h' })).toBe(60_000);
    expect(refreshMs({ preset: '7d' })).toBe(false);
    expect(refreshMs({ preset: 'custom', fromMs: NOW - 60_000, toMs: NOW })).toBe(false);
  });

  it('know which ranges the raw log can answer', () => {
    expect(withinRawLog({ preset: '30d' }, NOW)).toBe(true);
    expect(withinRawLog({ preset: 'custom', fromMs: NOW - 40 * DAY_MS, toMs: NOW - 39 * DAY_MS }, NOW)).toBe(false);
    expect(withinRawLog({ preset: 'custom', fromMs: NOW - 32 * DAY_MS + 1, toMs: NOW }, NOW)).toBe(false);
  });
});
