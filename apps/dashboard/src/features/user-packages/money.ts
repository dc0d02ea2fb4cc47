/**
 * Money as the API sends it (whole cents) shown the way the panel shows it: 0.00, two decimals,
 * computed on integers so that no float rounding creeps into a price.
 */
export const formatCents = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};
