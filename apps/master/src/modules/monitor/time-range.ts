import { invalidParam } from '../../errors.ts';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** The range a call covers when it names none. */
const DEFAULT_SPAN_MS = 60 * MINUTE_MS;

/** ISO 8601 or Unix seconds (the query's LogTime), as milliseconds. */
function timeMs(field: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^[0-9]+$/.test(text) ? Number(text) * 1000 : Date.parse(text);
  if (!Number.isFinite(ms)) throw invalidParam(field, `${text} is not a time`);
  return ms;
}

export interface RangeRules {
  /** The longest range accepted. */
  maxSpanMs: number;
  /** The oldest start accepted, as an age at `now` (what the raw log keeps). */
  maxAgeMs?: number;
  now: number;
}

/**
 * [from, to) in milliseconds: `to` is now and `from` an hour before `to` unless given. Reversed, empty, too long or too old ranges are refused, naming the field.
 */
export function timeRange(from: string | undefined, to: string | undefined, rules: RangeRules) {
  const fromGiven = timeMs('from', from);
  const toGiven = timeMs('to', to);
  const toMs = toGiven ?? rules.now;
  const fromMs = fromGiven ?? toMs - DEFAULT_SPAN_MS;
  if (toMs <= fromMs) throw invalidParam('to', 'must be after from');
  const days = (ms: number) => `${Math.round(ms / DAY_MS)} days`;
  if (toMs - fromMs > rules.maxSpanMs) throw invalidParam('from', `the range is at most ${days(rules.maxSpanMs)}`);
  if (rules.maxAgeMs !== undefined && fromMs < rules.now - rules.maxAgeMs) {
    throw invalidParam('from', `the access log keeps ${days(rules.maxAgeMs)}: start later`);
  }
  return { fromMs, toMs };
}
