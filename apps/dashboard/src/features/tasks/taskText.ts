/** A duration in milliseconds as people read it: 850 ms, 12.4 s, 3 min 5 s. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}

/** Interval choices of a scheduled task, in seconds: from a minute to a week. */
export const INTERVALS = [60, 300, 900, 1800, 3600, 6 * 3600, 12 * 3600, 86_400, 7 * 86_400] as const;

/** The interval as a count and unit key (`minutes`, `hours`, `days`) for the locale strings. */
export function intervalParts(seconds: number): { count: number; unit: 'minutes' | 'hours' | 'days' } {
  if (seconds % 86_400 === 0) return { count: seconds / 86_400, unit: 'days' };
  if (seconds % 3600 === 0) return { count: seconds / 3600, unit: 'hours' };
  return { count: Math.round(seconds / 60), unit: 'minutes' };
}
