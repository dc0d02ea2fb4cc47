import { describe, expect, it } from 'vitest';
import { MAX_RANGE_DAYS, rangeFits, rechargeStats, utcDays } from './rechargeStats.ts';

const from = Date.parse('2026-03-01T00:00:00Z');
const to = Date.parse('2026-03-03T23:59:59.999Z');

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

describe('rechargeStats', () => {
  it('takes the server’s days as they are and orders the channels, the known ones first', () => {
    const stats = rechargeStats({
      from: '2026-03-01',
      to: '2026-03-03',
      total: 4,
      amount: 6550,
      by_channel: { admin: 5000, alipay: 300, wxpay: 1250, voucher: 0 },
      list: [
        { date: '2026-03-01', count: 3, amount: 1550, by_channel: { wxpay: 1250, alipay: 300 } },
        { date: '2026-03-02', count: 0, amount: 0, by_channel: {} },
        { date: '2026-03-03', count: 1, amount: 5000, by_channel: { admin: 5000 } },
      ],
    });
    expect(stats.days).toEqual([
      { day: '2026-03-01', byChannel: { wxpay: 1250, alipay: 300 }, total: 1550, count: 3 },
      { day: '2026-03-02', byChannel: {}, total: 0, count: 0 },
      { day: '2026-03-03', byChannel: { admin: 5000 }, total: 5000, count: 1 },
    ]);
    expect(stats.channels).toEqual(['wxpay', 'alipay', 'admin', 'voucher']);
    expect(stats.totalByChannel).toEqual({ admin: 5000, alipay: 300, wxpay: 1250, voucher: 0 });
    expect(stats.total).toBe(6550);
    expect(stats.count).toBe(4);
  });
});
