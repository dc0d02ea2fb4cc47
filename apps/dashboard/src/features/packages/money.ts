import { MAX_CENTS } from '@rampart/contracts';
import { centsFromText, formatCents as twoDecimals } from '../../shared/util/money.ts';

/** Cents as the tables show them: 1250 is 12.50; null (not sold for that term) is a dash. */
export const formatCents = (cents: number | null | undefined): string =>
  cents === null || cents === undefined ? '—' : twoDecimals(cents);

/** Cents as a form's money field starts with: 1250 is "12.50", null is empty. */
export const centsToText = (cents: number | null | undefined): string =>
  cents === null || cents === undefined ? '' : formatCents(cents);

/**
 * Typed money as whole cents, read from the text (no floating point: 0.29 is 29, not 28.999…);
 * null for an empty field, undefined for text that is not money or is above the largest amount.
 */
export const parseMoney = (text: string | null | undefined): number | null | undefined => {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return null;
  // "12." is not money here (a form field that ends in a dot is still being typed).
  const cents = trimmed.endsWith('.') ? null : centsFromText(trimmed);
  return cents !== null && cents <= MAX_CENTS ? cents : undefined;
};

/** An antd rule for a money field: empty passes (the field says if it is required), bad text fails. */
export const moneyRule = (message: string) => ({
  validator: async (_rule: unknown, value: string | undefined) => {
    if (parseMoney(value) === undefined) throw new Error(message);
  },
});
