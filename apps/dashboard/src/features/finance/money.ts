/** Cents as money with two decimals: 12345 → "123.45", -5 → "-0.05". */
export const formatMoney = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(cents);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
};

const MONEY = /^([+-]?)(\d{1,12})(?:\.(\d{0,2}))?$/;

/**
 * Typed money as whole cents, read from the text so that 0.29 is 29 and never 28.999…; null when it
 * is not a number with at most two decimals. A sign is accepted only when `signed`.
 */
export const parseMoney = (text: string, { signed = false }: { signed?: boolean } = {}): number | null => {
  const match = MONEY.exec(text.trim());
  if (!match) return null;
  const [, sign = '', units = '0', decimals = ''] = match;
  if (sign && !signed) return null;
  const cents = Number(units) * 100 + Number(decimals.padEnd(2, '0'));
  return sign === '-' ? -cents : cents;
};
