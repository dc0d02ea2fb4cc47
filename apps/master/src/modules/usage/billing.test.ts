import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { billingPeriod, dayRange, forecastLinear, percentile95, sampleBps } from './billing.ts';

const DAY_MS = 86_400_000;

describe('the 95th percentile of 5-minute samples', () => {
  it('drops the highest 5 % and bills the highest sample left', () => {
    // 40 samples 1..40: 5 % of 40 is 2, so 40 and 39 go and 38 is billed.
    const forty = Array.from({ length: 40 }, (_, i) => i + 1);
    expect(percentile95(forty)).toBe(38);
    // Order does not matter.
    expect(percentile95([...forty].reverse())).toBe(38);
    // 20 samples 10, 20 .. 200: one dropped (200), 190 billed.
    expect(percentile95(Array.from({ length: 20 }, (_, i) => (i + 1) * 10))).toBe(190);
    // 59 samples: 5 % is 2.95, rounded down to 2.
    expect(percentile95(Array.from({ length: 59 }, (_, i) => i + 1))).toBe(57);
  });

  it('drops none of fewer than 20 samples, and bills zero for an empty month', () => {
    expect(percentile95([5, 80, 30])).toBe(80);
    expect(percentile95(Array.from({ length: 19 }, (_, i) => i + 1))).toBe(19);
    expect(percentile95([])).toBe(0);
    expect(percentile95([], 8640)).toBe(0);
  });

  it('counts the intervals without traffic as zero samples', () => {
    // 40 intervals, traffic in three: 2 dropped (900, 500), 100 billed.
    expect(percentile95([900, 500, 100], 40)).toBe(100);
    // A 30-day month has 8640 samples and 432 are dropped: three bursts bill nothing.
    expect(percentile95([900, 500, 100], 8640)).toBe(0);
    // Ties stay: the two highest of 20 equal samples drop one of them.
    expect(percentile95(Array.from({ length: 20 }, () => 7))).toBe(7);
    // More non-zero samples than the count given: the samples are the count.
    expect(percentile95([1, 2, 3], 1)).toBe(3);
  });

  it('turns the bytes of 5 minutes into bits per second', () => {
    expect(sampleBps(37_500)).toBe(1000);
  });
});

describe('the forecast to the end of the billing period', () => {
  it('extends the amount so far linearly over the period', () => {
    expect(forecastLinear(10_000, 10 * DAY_MS, 30 * DAY_MS)).toBe(30_000);
    expect(forecastLinear(7, 3 * DAY_MS, 30 * DAY_MS)).toBe(70);
    expect(forecastLinear(1, 3, 10)).toBe(3);
  });

  it('forecasts what there is when nothing has elapsed or the period is over', () => {
    expect(forecastLinear(0, 0, 30 * DAY_MS)).toBe(0);
    expect(forecastLinear(500, 30 * DAY_MS, 30 * DAY_MS)).toBe(500);
    expect(forecastLinear(500, 31 * DAY_MS, 30 * DAY_MS)).toBe(500);
  });
});

describe('the billing period', () => {
  const now = Date.parse('2026-11-25T09:00:00Z');

  it('is the current UTC month up to now by default', () => {
    const period = billingPeriod(undefined, now);
    expect(period).toMatchObject({
      month: '2026-11',
      fromMs: Date.parse('2026-11-01T00:00:00Z'),
      toMs: Date.parse('2026-12-01T00:00:00Z'),
      untilMs: now,
    });
    // 24 days and 9 hours of 5-minute samples.
    expect(period.samples).toBe(24 * 288 + 9 * 12);
  });

  it('covers a past month whole, December into the next year, and refuses a month to come', () => {
    expect(billingPeriod('2026-02', now).samples).toBe(28 * 288);
    expect(billingPeriod('2025-12', now).toMs).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(() => billingPeriod('2026-12', now)).toThrow(new AppError('invalid_param', 'month: 2026-12 has not begun'));
  });

  it('checks day ranges: real dates, in order, not too long', () => {
    const rules = { now, maxDays: 31, defaultFromMs: Date.parse('2026-11-01T00:00:00Z') };
    expect(dayRange({}, rules)).toEqual({
      firstMs: Date.parse('2026-11-01T00:00:00Z'),
      lastMs: Date.parse('2026-11-25T00:00:00Z'),
    });
    expect(() => dayRange({ from: '2026-02-30' }, rules)).toThrow('from: 2026-02-30 is not a date');
    expect(() => dayRange({ from: '2026-11-05', to: '2026-11-04' }, rules)).toThrow('to: must not be before from');
    expect(() => dayRange({ from: '2026-01-01', to: '2026-11-04' }, rules)).toThrow(
      'from: the range is at most 31 days',
    );
    expect(dayRange({ from: '2026-10-06', to: '2026-11-05' }, rules).firstMs).toBe(Date.parse('2026-10-06T00:00:00Z'));
  });
});
