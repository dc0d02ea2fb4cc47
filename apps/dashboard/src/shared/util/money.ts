/**
 * Money as the API sends it (whole cents) and as people type it (units with at most two decimals),
 * converted on integers so that no float rounding creeps in: 0.29 is 29 cents, never 28.999….
 */

/** Cents with two decimals: 12345 → "123.45", -5 → "-0.05". */
export const formatCents = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

const MONEY = /^([+-]?)(\d{1,12})(?:\.(\d{0,2}))?$/;

/** Typed money as whole cents; null when it is not money. A sign is accepted only when `signed`. */
export const centsFromText = (text: string, { signed = false }: { signed?: boolean } = {}): number | null => {
  const match = MONEY.exec(text.trim());
  if (!match) return null;
  const [, sign = '', units = '0', decimals = ''] = match;
  if (sign && !signed) return null;
  const cents = Number(units) * 100 + Number(decimals.padEnd(2, '0'));
  return sign === '-' ? -cents : cents;
};
