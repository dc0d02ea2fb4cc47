import { describe, expect, it } from 'vitest';
import { formatCents } from './money.ts';

describe('formatCents', () => {
  it('shows whole cents with two decimals', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(1000)).toBe('10.00');
    expect(formatCents(123_456)).toBe('1234.56');
  });

  it('keeps the sign of a debit and never rounds through a float', () => {
    expect(formatCents(-250)).toBe('-2.50');
    expect(formatCents(100_000_000_000)).toBe('1000000000.00');
    expect(formatCents(1_000_000_001)).toBe('10000000.01');
  });
});
