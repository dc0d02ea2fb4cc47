/** Money as the API sends it (whole cents) shown the way the panel shows it: 0.00, two decimals. */
export { formatCents } from '../../shared/util/money.ts';
