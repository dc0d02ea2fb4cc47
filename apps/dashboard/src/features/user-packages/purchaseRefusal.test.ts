import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/apiError.ts';
import { purchaseRefusal } from './purchaseRefusal.ts';

const refused = (code: string, message: string, status: number) =>
  purchaseRefusal(new ApiError(code, message, status, '/v1/user-packages'));

describe('purchaseRefusal', () => {
  it("puts the server's coupon message at the coupon field, without the field's name", () => {
    expect(refused('not_found', 'coupon: NOPE1 does not exist', 404)).toEqual({
      at: 'coupon',
      text: 'NOPE1 does not exist',
    });
    expect(refused('invalid_param', 'coupon: SAVE10 needs a spend of at least 50.00', 400)).toEqual({
      at: 'coupon',
      text: 'SAVE10 needs a spend of at least 50.00',
    });
  });

  it('keeps a short balance beside the recharge link, with the figures the server named', () => {
    const text = 'the balance (1.00) does not cover 10.00; recharge 9.00 more';
    expect(refused('balance_insufficient', text, 402)).toEqual({ at: 'balance', text });
  });

  it('leaves anything else to the popup', () => {
    const refusal = refused('invalid_param', 'term: package Pro is not sold by the year', 400);
    expect(refusal.at).toBe('popup');
  });
});
