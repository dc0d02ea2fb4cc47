import { USAGE_LIMITS } from '@rampart/contracts';
import { invalidParam } from '../../errors.ts';

export const DAY_MS = 86_400_000;
const SAMPLE_MS = USAGE_LIMITS.sampleSeconds * 1000;

/**
 * The billed bandwidth of a period, by the usual burstable-billing convention: take every 5-minute
 * sample of the period, sort them, drop the highest 5 % (rounded down, so fewer than 20 samples drop
 * none) and bill the highest one left. Intervals without traffic are samples of zero: `count` is how
 * many samples the period has had, `samples` only the non-zero ones (the rest are zeros). No
 * samples at all bill zero.
 */
export function percentile95(samples: ArrayLike<number>, count: number = samples.length): number {
  const total = Math.max(count, samples.length);
  const dropped = Math.floor((total * (100 - USAGE_LIMITS.percentile)) / 100);
  // A typed array sorts numerically without a comparator: a month is 8,640 samples a call.
  const ascending = Float64Array.from(samples).sort();
  return ascending[ascending.length - 1 - dropped] ?? 0;
}

/** The highest sample, zero for none. */
export function highest(samples: ArrayLike<number>): number {
  let peak = 0;
  for (let i = 0; i < samples.length; i++) peak = Math.max(peak, samples[i] ?? 0);
  return peak;
}

/** Bits per second of one 5-minute sample of `bytes`. */
export const sampleBps = (bytes: number): number => (bytes * 8) / USAGE_LIMITS.sampleSeconds;

/**
 * The amount at the end of the period at the pace so far: linear on the time elapsed. Nothing
 * elapsed forecasts what there is (zero); a period that is over forecasts its actual amount.
 */
export function forecastLinear(soFar: number, elapsedMs: number, periodMs: number): number {
  if (elapsedMs <= 0 || elapsedMs >= periodMs) return soFar;
  return Math.round((soFar * periodMs) / elapsedMs);
}

export interface BillingPeriod {
  month: string;
  fromMs: number;
  toMs: number;
  /** The end of what has happened: now, or the period's end once it is over. */
  untilMs: number;
  /** The 5-minute samples the period has had by `untilMs` (the one under way included). */
  samples: number;
}

const monthName = (ms: number) => new Date(ms).toISOString().slice(0, 7);

/** A calendar month in UTC (default: the one `now` is in); a month that has not begun is refused. */
export function billingPeriod(month: string | undefined, now: number): BillingPeriod {
  const name = month ?? monthName(now);
  const [year, index] = name.split('-').map(Number);
  const fromMs = Date.UTC(year ?? 1970, (index ?? 1) - 1, 1);
  const toMs = Date.UTC(year ?? 1970, index ?? 1, 1);
  if (fromMs > now) throw invalidParam('month', `${name} has not begun`);
  const untilMs = Math.min(now, toMs);
  return { month: name, fromMs, toMs, untilMs, samples: Math.ceil((untilMs - fromMs) / SAMPLE_MS) };
}

/** A UTC date `YYYY-MM-DD` as the milliseconds of its midnight; an impossible date names the field. */
export function dateMs(field: string, text: string): number {
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
    throw invalidParam(field, `${text} is not a date`);
  }
  return ms;
}

export const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const dayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * First and last day (midnights, both included) of a day range: `from`..`to` as given, by default
 * `defaultDays` days up to today; reversed or longer than `maxDays` ranges are refused.
 */
export function dayRange(
  query: { from?: string | undefined; to?: string | undefined },
  rules: { now: number; maxDays: number; defaultFromMs: number },
): { firstMs: number; lastMs: number } {
  const lastMs = query.to === undefined ? dayStart(rules.now) : dateMs('to', query.to);
  const firstMs = query.from === undefined ? Math.min(rules.defaultFromMs, lastMs) : dateMs('from', query.from);
  if (lastMs < firstMs) throw invalidParam('to', 'must not be before from');
  if ((lastMs - firstMs) / DAY_MS + 1 > rules.maxDays) {
    throw invalidParam('from', `the range is at most ${rules.maxDays} days`);
  }
  return { firstMs, lastMs };
}
