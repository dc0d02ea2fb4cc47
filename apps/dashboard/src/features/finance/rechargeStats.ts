import type { OrderCountSeries } from '@rampart/contracts';

/** At most this many days per statistics range (a quarter). */
export const MAX_RANGE_DAYS = 92;
const DAY_MS = 86_400_000;

export interface RechargeDay {
  /** YYYY-MM-DD in UTC. */
  day: string;
  /** Cents per channel. */
  byChannel: Record<string, number>;
  total: number;
  count: number;
}

export interface RechargeStats {
  days: RechargeDay[];
  /** Every channel seen, in a stable order (the known ones first). */
  channels: string[];
  totalByChannel: Record<string, number>;
  total: number;
  count: number;
}

const KNOWN_CHANNELS = ['wxpay', 'alipay', 'admin', 'balance'];
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Every UTC day from the one holding `fromMs` to the one holding `toMs`, both included. */
export const utcDays = (fromMs: number, toMs: number): string[] => {
  const days: string[] = [];
  const start = Date.parse(`${utcDay(fromMs)}T00:00:00.000Z`);
  for (let at = start; at <= toMs && days.length <= MAX_RANGE_DAYS; at += DAY_MS) days.push(utcDay(at));
  return days;
};

/** Whether a range is at most MAX_RANGE_DAYS UTC days long. */
export const rangeFits = (fromMs: number, toMs: number): boolean =>
  toMs >= fromMs && utcDays(fromMs, toMs).length <= MAX_RANGE_DAYS;

/** What the page shows until the figures arrive. */
export const NO_RECHARGES: RechargeStats = { days: [], channels: [], totalByChannel: {}, total: 0, count: 0 };

/**
 * The server's paid recharges per UTC day of payment (`GET /v1/order/count?kind=recharge`), every day
 * of the range present (zero when nothing came in) so the chart's axis has no gaps, and the channels
 * in a stable order (the known ones first).
 */
export const rechargeStats = (series: OrderCountSeries): RechargeStats => {
  const days = series.list.map((entry) => ({
    day: entry.date,
    byChannel: { ...entry.by_channel },
    total: entry.amount,
    count: entry.count,
  }));
  const seen = Object.keys(series.by_channel);
  const channels = [
    ...KNOWN_CHANNELS.filter((channel) => seen.includes(channel)),
    ...seen.filter((channel) => !KNOWN_CHANNELS.includes(channel)).sort(),
  ];
  return { days, channels, totalByChannel: { ...series.by_channel }, total: series.amount, count: series.total };
};
