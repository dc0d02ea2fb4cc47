import { describe, expect, it } from 'vitest';
import { ApiError, type ErrorParams } from '../../shared/http/apiError.ts';
import { purchaseRefusal, type RefusalWords } from './purchaseRefusal.ts';

const words: RefusalWords = {
  error: (error) => `text of ${error.code}`,
  coupon: (serverText) => `coupon: ${serverText}`,
};

const refused = (code: string, message: string, status: number, params?: ErrorParams) =>
  purchaseRefusal(new ApiError(code, message, status, '/v1/user-packages', params), words);

describe('purchaseRefusal', () => {
  it("puts the server's coupon refusal at the coupon field, without the field's name", () => {
    expect(refused('not_found', 'coupon: NOPE1 does not exist', 404)).toEqual({
      at: 'coupon',
      text: 'coupon: NOPE1 does not exist',
    });
    expect(refused('invalid_param', 'coupon: SAVE10 needs a spend of at least 50.00', 400)).toEqual({
      at: 'coupon',
      text: 'coupon: SAVE10 needs a spend of at least 50.00',
    });
  });

  it('keeps a short balance beside the recharge link, in the words of the page', () => {
    const params = { balance: '1.00', price: '10.00', short: '9.00' };
    expect(refused('balance_insufficient', 'the balance (1.00) does not cover 10.00', 402, params)).toEqual({
      at: 'balance',
      text: 'text of balance_insufficient',
    });
  });

  it('leaves anything else to the popup', () => {
    const refusal = refused('invalid_param', 'term: package Pro is not sold by the year', 400);
    expect(refusal.at).toBe('popup');
  });
});
