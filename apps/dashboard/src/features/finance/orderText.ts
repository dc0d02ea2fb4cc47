import type { OrderView } from '@rampart/contracts';
import type { TFunction } from 'i18next';
import { formatMoney } from './money.ts';

/** A kind, channel or state in the user's language; an unknown value as it is. */
export const orderLabel = (t: TFunction, group: 'kind' | 'channel' | 'state', value: string): string =>
  t(`finance.${group}.${value}`, { defaultValue: value });

/** Green for money in, red for money out. */
export const amountColor = (cents: number): string => (cents > 0 ? '#389e0d' : cents < 0 ? '#cf1322' : 'inherit');

/** An amount with its sign: +10.00, -3.50. */
export const signedMoney = (cents: number): string => (cents > 0 ? `+${formatMoney(cents)}` : formatMoney(cents));

export const STATE_COLOR: Record<string, string> = { pending: 'gold', paid: 'green', closed: 'default' };

/** The CSV of the finance order export: a header row in the user's language, then one row per order. */
export const orderCsvRows = (t: TFunction, orders: readonly OrderView[]): (string | number | null)[][] => [
  [
    t('finance.column.id'),
    t('finance.column.user'),
    t('finance.column.kind'),
    t('finance.column.channel'),
    t('finance.column.state'),
    t('finance.column.amount'),
    t('finance.column.balanceAfter'),
    t('finance.column.description'),
    t('finance.column.outTradeNo'),
    t('finance.column.createdAt'),
    t('finance.column.paidAt'),
  ],
  ...orders.map((order) => [
    order.id,
    order.username,
    orderLabel(t, 'kind', order.kind),
    orderLabel(t, 'channel', order.channel),
    orderLabel(t, 'state', order.state),
    formatMoney(order.amount),
    order.balance_after === null ? '' : formatMoney(order.balance_after),
    order.description,
    order.out_trade_no,
    order.created_at,
    order.paid_at,
  ]),
];
