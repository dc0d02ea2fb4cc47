import { MONITOR_LIMITS } from '@rampart/contracts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The ranges the pages offer, as their length; `custom` is picked with a calendar. */
export const RANGE_PRESETS = {
  '15m': 15 * MINUTE_MS,
  '1h': HOUR_MS,
  '6h': 6 * HOUR_MS,
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
} as const;
export type RangePreset = keyof typeof RANGE_PRESETS;
export type RangeChoice = { preset: RangePreset } | { preset: 'custom'; fromMs: number; toMs: number };

export const PRESET_NAMES = Object.keys(RANGE_PRESETS) as RangePreset[];

/** ISO 8601 in UTC, whole seconds: what the master's LogTime accepts. */
export const isoSeconds = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** The choice as the query's from and to; a preset ends now (whole seconds, so a refetch moves it). */
export function rangeQuery(choice: RangeChoice, now: number): { from: string; to: string } {
  if (choice.preset === 'custom') return { from: isoSeconds(choice.fromMs), to: isoSeconds(choice.toMs) };
  return { from: isoSeconds(now - RANGE_PRESETS[choice.preset]), to: isoSeconds(now) };
}

/** Short ranges refresh themselves: every 10 s up to an hour, every minute up to a day; longer ones do not. */
export function refreshMs(choice: RangeChoice): number | false {
  if (choice.preset === 'custom') return false;
  const span = RANGE_PRESETS[choice.preset];
  if (span <= HOUR_MS) return 10_000;
  if (span <= DAY_MS) return 60_000;
  return false;
}

/** Whether top lists and the access log can answer the choice (they read only the raw log's days). */
export function withinRawLog(choice: RangeChoice, now: number): boolean {
  const limit = MONITOR_LIMITS.rawLogDays * DAY_MS;
  if (choice.preset !== 'custom') return RANGE_PRESETS[choice.preset] <= limit;
  return choice.toMs - choice.fromMs <= limit && choice.fromMs >= now - limit;
}
