import { MAX_CENTS } from '@rampart/contracts';

/** Money as typed: whole units with at most two decimals, e.g. 12, 12.5 or 12.50. */
const MONEY = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Cents as the tables show them: 1250 is 12.50; null (not sold for that term) is a dash. */
export const formatCents = (cents: number | null | undefined): string => {
  if (cents === null || cents === undefined) return '—';
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

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
  const match = MONEY.exec(trimmed);
  if (!match?.[1]) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MAX_CENTS ? cents : undefined;
};

/** An antd rule for a money field: empty passes (the field says if it is required), bad text fails. */
export const moneyRule = (message: string) => ({
  validator: async (_rule: unknown, value: string | undefined) => {
    if (parseMoney(value) === undefined) throw new Error(message);
  },
});
