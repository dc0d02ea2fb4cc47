/** The UTC month of a time, as the usage calls name it (2026-11). */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** The current month and the `count - 1` before it, newest first. */
export function recentMonths(now: number, count = 12): string[] {
  const date = new Date(now);
  return Array.from({ length: count }, (_, back) =>
    monthOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - back, 1)),
  );
}
