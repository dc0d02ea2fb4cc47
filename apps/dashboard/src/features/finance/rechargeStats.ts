/** At most this many days per statistics range (a quarter). */
export const MAX_RANGE_DAYS = 92;
const DAY_MS = 86_400_000;

export interface PaidRecharge {
  channel: string;
  amount: number;
  /** When the money arrived (ISO); the creation time when absent. */
  paid_at: string | null;
  created_at: string;
}

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

/**
 * Paid recharges summed per UTC day (of payment) and channel, with every day of the range present
 * (zero when nothing came in) so the chart's axis has no gaps.
 */
export const aggregateRecharges = (orders: readonly PaidRecharge[], fromMs: number, toMs: number): RechargeStats => {
  const days = new Map(utcDays(fromMs, toMs).map((day) => [day, { day, byChannel: {}, total: 0, count: 0 }]));
  const totalByChannel: Record<string, number> = {};
  let total = 0;
  let count = 0;
  for (const order of orders) {
    const entry = days.get(utcDay(Date.parse(order.paid_at ?? order.created_at)));
    if (!entry) continue;
    const byChannel: Record<string, number> = entry.byChannel;
    byChannel[order.channel] = (byChannel[order.channel] ?? 0) + order.amount;
    entry.total += order.amount;
    entry.count += 1;
    totalByChannel[order.channel] = (totalByChannel[order.channel] ?? 0) + order.amount;
    total += order.amount;
    count += 1;
  }
  const seen = Object.keys(totalByChannel);
  const channels = [
    ...KNOWN_CHANNELS.filter((channel) => seen.includes(channel)),
    ...seen.filter((channel) => !KNOWN_CHANNELS.includes(channel)).sort(),
  ];
  return { days: [...days.values()], channels, totalByChannel, total, count };
};
