import { describe, expect, it } from 'vitest';
import { monthOf, recentMonths } from './months.ts';

describe('months offered by the usage pages', () => {
  it('are the current UTC month and the ones before it, across a year boundary', () => {
    const now = Date.parse('2026-02-10T12:00:00Z');
    expect(monthOf(now)).toBe('2026-02');
    expect(recentMonths(now, 4)).toEqual(['2026-02', '2026-01', '2025-12', '2025-11']);
    expect(recentMonths(now)).toHaveLength(12);
  });
});
