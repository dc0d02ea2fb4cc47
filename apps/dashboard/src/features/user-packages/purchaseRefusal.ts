import type { ApiError } from '../../shared/http/apiError.ts';
import { serverFieldError } from '../sites/edgeRules.ts';

/** The code of a payment the balance does not cover (HTTP 402). */
export const BALANCE_INSUFFICIENT = 'balance_insufficient';

/** Where a refused quote or payment is explained: at the coupon field, beside a recharge link, or as a popup. */
export type PurchaseRefusal =
  | { at: 'coupon'; text: string }
  | { at: 'balance'; text: string }
  | { at: 'popup'; error: ApiError };

/** How a refusal is worded for this page: the failure in the user's language, and the coupon's. */
export interface RefusalWords {
  /** errorText of shared/http: `errors.<code>` with its figures. */
  error: (error: ApiError) => string;
  /** The coupon's refusal from the server's English reason (shown as it is on an English page only). */
  coupon: (serverText: string) => string;
}

export const purchaseRefusal = (error: ApiError, words: RefusalWords): PurchaseRefusal => {
  if (error.code === BALANCE_INSUFFICIENT) return { at: 'balance', text: words.error(error) };
  const named = serverFieldError(error.message);
  if (named?.name[0] === 'coupon') return { at: 'coupon', text: words.coupon(named.text) };
  return { at: 'popup', error };
};
