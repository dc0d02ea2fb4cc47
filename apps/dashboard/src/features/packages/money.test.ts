import { MAX_CENTS } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { centsToText, formatCents, parseMoney } from './money.ts';

describe('money', () => {
  it('shows cents as units with two decimals, and a dash for a term not sold', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(1250)).toBe('12.50');
    expect(formatCents(123456789)).toBe('1234567.89');
    expect(formatCents(null)).toBe('—');
    expect(centsToText(null)).toBe('');
    expect(centsToText(990)).toBe('9.90');
  });

  it('reads typed money as whole cents without floating-point drift', () => {
    expect(parseMoney('12')).toBe(1200);
    expect(parseMoney('12.5')).toBe(1250);
    expect(parseMoney(' 0.29 ')).toBe(29);
    expect(parseMoney('19.99')).toBe(1999);
    expect(parseMoney(formatCents(MAX_CENTS))).toBe(MAX_CENTS);
  });

  it('reads an empty field as null and refuses what is not money', () => {
    expect(parseMoney('')).toBeNull();
    expect(parseMoney(undefined)).toBeNull();
    for (const text of ['12.345', '-1', '1e3', 'abc', '.5', '12.', '1,000']) expect(parseMoney(text)).toBeUndefined();
    expect(parseMoney(formatCents(MAX_CENTS + 1))).toBeUndefined();
  });
});
