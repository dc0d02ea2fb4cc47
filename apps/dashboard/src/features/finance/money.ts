import { centsFromText, formatCents } from '../../shared/util/money.ts';

/** Cents as money with two decimals: 12345 → "123.45", -5 → "-0.05". */
export const formatMoney = formatCents;

/**
 * Typed money as whole cents; null when it is not a number with at most two decimals. A sign is
 * accepted only when `signed`.
 */
export const parseMoney = centsFromText;
