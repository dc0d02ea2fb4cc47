import { describe, expect, it } from 'vitest';
import { clockWarning } from './nodeClock.ts';

describe('clockWarning', () => {
  it('says nothing before the first report or while the clock is within 30 seconds', () => {
    expect(clockWarning(null)).toBeNull();
    expect(clockWarning(0)).toBeNull();
    expect(clockWarning(30)).toBeNull();
    expect(clockWarning(-30)).toBeNull();
  });

  it('warns of a clock ahead or behind, in seconds under two minutes and in minutes from there', () => {
    expect(clockWarning(31)).toEqual({ direction: 'ahead', unit: 'seconds', amount: 31 });
    expect(clockWarning(-95)).toEqual({ direction: 'behind', unit: 'seconds', amount: 95 });
    expect(clockWarning(600)).toEqual({ direction: 'ahead', unit: 'minutes', amount: 10 });
    expect(clockWarning(-3_570)).toEqual({ direction: 'behind', unit: 'minutes', amount: 60 });
  });
});
