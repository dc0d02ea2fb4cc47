/** How full a limit is, for the usage bars: 0 to 100, and 100 when something is used against a limit of 0. */
export const usagePercent = (used: number, limit: number): number => {
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.round((used / limit) * 100));
};

/** Traffic and bandwidth: 0 means unlimited (null here, so the page says so). */
export const unlimitedWhenZero = (value: number): number | null => (value === 0 ? null : value);
