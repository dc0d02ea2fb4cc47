import { describe, expect, it } from 'vitest';
import { aggregateRecharges, MAX_RANGE_DAYS, rangeFits, utcDays } from './rechargeStats.ts';

const from = Date.parse('2026-03-01T00:00:00Z');
const to = Date.parse('2026-03-03T23:59:59.999Z');
const order = (channel: string, amount: number, paidAt: string) => ({
  channel,
  amount,
  paid_at: paidAt,
  created_at: paidAt,
});

describe('utcDays', () => {
  it('lists each UTC day of the range, both ends included', () => {
    expect(utcDays(from, to)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(utcDays(Date.parse('2026-03-01T23:00:00Z'), Date.parse('2026-03-02T01:00:00Z'))).toEqual([
      '2026-03-01',
      '2026-03-02',
    ]);
  });
});

describe('rangeFits', () => {
  it('allows up to the day limit and refuses one more or a reversed range', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const lastDay = start + (MAX_RANGE_DAYS - 1) * 86_400_000;
    expect(rangeFits(start, lastDay + 3_600_000)).toBe(true);
    expect(rangeFits(start, lastDay + 86_400_000)).toBe(false);
    expect(rangeFits(to, from)).toBe(false);
  });
});

describe('aggregateRecharges', () => {
  it('sums per UTC day of payment and channel, with empty days kept', () => {
    const stats = aggregateRecharges(
      [
        order('wxpay', 1000, '2026-03-01T10:00:00Z'),
        order('wxpay', 250, '2026-03-01T23:59:59Z'),
        order('alipay', 300, '2026-03-01T12:00:00Z'),
        // 00:30 in UTC+8 on the 4th is still the 3rd in UTC.
        order('admin', 5000, '2026-03-03T16:30:00Z'),
      ],
      from,
      to,
    );
    expect(stats.days).toEqual([
      { day: '2026-03-01', byChannel: { wxpay: 1250, alipay: 300 }, total: 1550, count: 3 },
      { day: '2026-03-02', byChannel: {}, total: 0, count: 0 },
      { day: '2026-03-03', byChannel: { admin: 5000 }, total: 5000, count: 1 },
    ]);
    expect(stats.channels).toEqual(['wxpay', 'alipay', 'admin']);
    expect(stats.totalByChannel).toEqual({ wxpay: 1250, alipay: 300, admin: 5000 });
    expect(stats.total).toBe(6550);
    expect(stats.count).toBe(4);
  });

  it('leaves out orders paid outside the range and falls back to the creation time', () => {
    const stats = aggregateRecharges(
      [
        order('wxpay', 1, '2026-02-28T23:59:59Z'),
        { channel: 'alipay', amount: 7, paid_at: null, created_at: '2026-03-02T08:00:00Z' },
      ],
      from,
      to,
    );
    expect(stats.total).toBe(7);
    expect(stats.days[1]?.byChannel).toEqual({ alipay: 7 });
  });
});
