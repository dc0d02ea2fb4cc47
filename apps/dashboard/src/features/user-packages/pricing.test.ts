import type { DiscountView } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { buyRequest, discountPercent, isQuotable, renewRequest, soldTerms } from './pricing.ts';

const discount = (package_id: number | null, term: string, percent: number): DiscountView => ({
  id: percent,
  package_id,
  package_name: null,
  term,
  percent,
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('soldTerms', () => {
  it('lists only the terms with a price, in month, quarter, year order', () => {
    expect(soldTerms({ price_month: 1000, price_quarter: null, price_year: 0 })).toEqual(['month', 'year']);
    expect(soldTerms({ price_month: null, price_quarter: null, price_year: null })).toEqual([]);
  });
});

describe('discountPercent', () => {
  const discounts = [discount(null, 'year', 10), discount(7, 'year', 20), discount(null, 'quarter', 5)];

  it("prefers the package's own discount to the one for every package", () => {
    expect(discountPercent(discounts, 7, 'year')).toBe(20);
    expect(discountPercent(discounts, 8, 'year')).toBe(10);
  });

  it('is 0 for a term without a discount', () => {
    expect(discountPercent(discounts, 7, 'month')).toBe(0);
  });
});

describe('isQuotable', () => {
  it('needs a term and 1 to 36 whole terms', () => {
    expect(isQuotable({ term: 'month', terms: 1, coupon: '' })).toBe(true);
    expect(isQuotable({ terms: 1, coupon: '' })).toBe(false);
    expect(isQuotable({ term: 'month', terms: 0, coupon: '' })).toBe(false);
    expect(isQuotable({ term: 'month', terms: 37, coupon: '' })).toBe(false);
    expect(isQuotable({ term: 'month', terms: 1.5, coupon: '' })).toBe(false);
  });

  it('waits for a coupon code the server could accept', () => {
    expect(isQuotable({ term: 'year', terms: 2, coupon: 'ab' })).toBe(false);
    expect(isQuotable({ term: 'year', terms: 2, coupon: 'SAVE 10' })).toBe(false);
    expect(isQuotable({ term: 'year', terms: 2, coupon: ' SAVE10 ' })).toBe(true);
  });
});

describe('buyRequest', () => {
  it('asks for a quote with the draft, the coupon trimmed', () => {
    expect(buyRequest(3, { term: 'quarter', terms: 2, coupon: ' SAVE10 ' }, true)).toEqual({
      package_id: 3,
      term: 'quarter',
      terms: 2,
      coupon: 'SAVE10',
      quote: true,
    });
  });

  it('buys without quote and leaves an empty coupon out', () => {
    expect(buyRequest(3, { term: 'month', terms: 1, coupon: '  ' }, false)).toEqual({
      package_id: 3,
      term: 'month',
      terms: 1,
    });
  });
});

describe('renewRequest', () => {
  it('nests the renewal under renew, quote only when asked', () => {
    expect(renewRequest({ term: 'year', terms: 1, coupon: 'SAVE10' }, true)).toEqual({
      renew: { term: 'year', terms: 1, coupon: 'SAVE10', quote: true },
    });
    expect(renewRequest({ term: 'month', terms: 3, coupon: '' }, false)).toEqual({
      renew: { term: 'month', terms: 3 },
    });
  });
});
