import { describe, expect, it } from 'vitest';
import { payReadiness } from './payReadiness.ts';

describe('payReadiness', () => {
  it('lets a covered price be paid', () => {
    expect(payReadiness({ amount: 29_000, balance: 29_000 }, false)).toEqual({ kind: 'ready' });
  });

  it('holds a short balance back with what is missing', () => {
    expect(payReadiness({ amount: 29_000, balance: 0 }, false)).toEqual({ kind: 'short', missing: 29_000 });
    expect(payReadiness({ price: 1_050, balance: 1_000 }, false)).toEqual({ kind: 'short', missing: 50 });
  });

  it('sends nothing without a price for the current choice', () => {
    expect(payReadiness(undefined, false)).toEqual({ kind: 'unpriced' });
    expect(payReadiness({ amount: 100, balance: 1_000 }, true)).toEqual({ kind: 'unpriced' });
  });
});
