import { describe, expect, it } from 'vitest';
import { formatDuration, intervalParts } from './taskText.ts';

describe('task durations and intervals', () => {
  it('read a duration in the largest sensible unit', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_400)).toBe('12.4 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(120_000)).toBe('2 min');
  });
  it('name an interval by days, hours or minutes', () => {
    expect(intervalParts(7 * 86_400)).toEqual({ count: 7, unit: 'days' });
    expect(intervalParts(3600)).toEqual({ count: 1, unit: 'hours' });
    expect(intervalParts(900)).toEqual({ count: 15, unit: 'minutes' });
  });
});
