import { describe, expect, it } from 'vitest';
import { formatMoney, parseMoney } from './money.ts';

describe('formatMoney', () => {
  it('shows cents with two decimals and the sign', () => {
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(12345)).toBe('123.45');
    expect(formatMoney(-5)).toBe('-0.05');
    expect(formatMoney(-100)).toBe('-1.00');
  });
});

describe('parseMoney', () => {
  it('reads whole and decimal amounts as exact cents', () => {
    expect(parseMoney('12')).toBe(1200);
    expect(parseMoney('0.29')).toBe(29);
    expect(parseMoney('1.1')).toBe(110);
    expect(parseMoney(' 3. ')).toBe(300);
    expect(parseMoney('19.99')).toBe(1999);
  });

  it('refuses more than two decimals, letters, exponents and empty text', () => {
    for (const text of ['', '.', '1.234', 'abc', '1e3', '1,5', '0x10', 'NaN']) expect(parseMoney(text)).toBeNull();
  });

  it('takes a sign only when the amount may be signed', () => {
    expect(parseMoney('-2.50')).toBeNull();
    expect(parseMoney('-2.50', { signed: true })).toBe(-250);
    expect(parseMoney('+7', { signed: true })).toBe(700);
  });
});
