import type { ApiError } from '../../shared/http/apiError.ts';
import { serverFieldError } from '../sites/edgeRules.ts';

/** The code of a payment the balance does not cover (HTTP 402). */
export const BALANCE_INSUFFICIENT = 'balance_insufficient';

/** Where a refused quote or payment is explained: at the coupon field, beside a recharge link, or as a popup. */
export type PurchaseRefusal =
  | { at: 'coupon'; text: string }
  | { at: 'balance'; text: string }
  | { at: 'popup'; error: ApiError };

export const purchaseRefusal = (error: ApiError): PurchaseRefusal => {
  if (error.code === BALANCE_INSUFFICIENT) return { at: 'balance', text: error.message };
  const named = serverFieldError(error.message);
  if (named?.name[0] === 'coupon') return { at: 'coupon', text: named.text };
  return { at: 'popup', error };
};
