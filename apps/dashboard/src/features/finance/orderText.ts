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
    orderDescription(t, order),
    order.out_trade_no,
    order.created_at,
    order.paid_at,
  ]),
];

const TERM = '(month|quarter|year)';
/** The descriptions the master writes, by kind: their figures are read back to word them in the user's language. */
const MASTER_TEXTS = {
  purchase: new RegExp(`^(.+): (\\d+) ${TERM}\\(s\\)$`),
  renewal: new RegExp(`^(.+): (\\d+) ${TERM}\\(s\\) more$`),
  autoRenewal: /^(.+): renewed automatically$/,
  upgrade: /^(.+): (\d+) x (.+) for (\d+) day\(s\)$/,
  upgradeCarried: /^(.+): (\d+) upgrade\(s\) carried to the package's end$/,
  refund: /^refund of order (\d+)(?:: (.*))?$/s,
  adjustmentBy: /^by (\S+)$/,
};

/**
 * An order's description in the user's language, composed from its kind, channel and the figures the
 * master put in its English description (package name, terms, packs). A text an administrator typed
 * stays as it was; a description of a shape not known here is shown as it is.
 */
export const orderDescription = (
  t: TFunction,
  order: Pick<OrderView, 'kind' | 'channel' | 'description' | 'refund_of' | 'package_name'>,
): string => {
  const text = order.description;
  const period = (terms: string | undefined, term: string | undefined) =>
    t(`finance.describe.period.${term ?? 'month'}`, { count: Number(terms) });
  if (order.kind === 'recharge' && order.channel !== 'admin') {
    return t('finance.describe.recharge', { channel: orderLabel(t, 'channel', order.channel) });
  }
  if (order.channel === 'admin') {
    const by = MASTER_TEXTS.adjustmentBy.exec(text);
    return by ? t('finance.describe.adjustmentBy', { admin: by[1] }) : text;
  }
  if (order.kind === 'purchase') {
    const bought = MASTER_TEXTS.purchase.exec(text);
    if (bought) return t('finance.describe.purchase', { name: bought[1], period: period(bought[2], bought[3]) });
  }
  if (order.kind === 'renewal') {
    const renewed = MASTER_TEXTS.renewal.exec(text);
    if (renewed) return t('finance.describe.renewal', { name: renewed[1], period: period(renewed[2], renewed[3]) });
    const automatic = MASTER_TEXTS.autoRenewal.exec(text);
    if (automatic) return t('finance.describe.autoRenewal', { name: automatic[1] });
  }
  if (order.kind === 'upgrade') {
    const carried = MASTER_TEXTS.upgradeCarried.exec(text);
    if (carried) return t('finance.describe.upgradeCarried', { name: carried[1], count: Number(carried[2]) });
    const upgraded = MASTER_TEXTS.upgrade.exec(text);
    if (upgraded) {
      return t('finance.describe.upgrade', {
        name: upgraded[1],
        packs: upgraded[2],
        pack: upgraded[3],
        days: upgraded[4],
      });
    }
  }
  const named = order.package_name;
  if (named !== null && (order.kind === 'purchase' || order.kind === 'renewal' || order.kind === 'upgrade')) {
    return t(`finance.describe.${order.kind}Plain`, { name: named });
  }
  if (order.kind === 'refund') {
    const refund = MASTER_TEXTS.refund.exec(text);
    const id = refund?.[1] ?? (order.refund_of === null ? '' : String(order.refund_of));
    if (refund?.[2]) return t('finance.describe.refundReason', { id, reason: refund[2] });
    if (id) return t('finance.describe.refund', { id });
  }
  return text;
};
