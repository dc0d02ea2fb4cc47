import { describe, expect, it } from 'vitest';
import { unlimitedWhenZero, usagePercent } from './limits.ts';

describe('usagePercent', () => {
  it('is the share of the limit in use, capped at 100', () => {
    expect(usagePercent(0, 10)).toBe(0);
    expect(usagePercent(1, 3)).toBe(33);
    expect(usagePercent(12, 10)).toBe(100);
  });

  it('reads a limit of 0 as full once anything uses it', () => {
    expect(usagePercent(0, 0)).toBe(0);
    expect(usagePercent(1, 0)).toBe(100);
  });
});

describe('unlimitedWhenZero', () => {
  it('turns 0 traffic or bandwidth into unlimited', () => {
    expect(unlimitedWhenZero(0)).toBeNull();
    expect(unlimitedWhenZero(500)).toBe(500);
  });
});
