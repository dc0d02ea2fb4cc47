/**
 * A chart's points from rollup rows: one point per interval from `first` to `end` (seconds, `seconds`
 * apart), an interval without a row counted as zero, and the totals of every count.
 */
export function bucketSeries<Counts extends Record<string, number>>(
  rows: readonly (Counts & { bucket: number })[],
  zero: Counts,
  { first, end, seconds }: { first: number; end: number; seconds: number },
): { points: (Counts & { time: string })[]; totals: Counts } {
  const byBucket = new Map<number, Record<string, number>>(rows.map((row) => [row.bucket, row]));
  const keys = Object.keys(zero);
  const totals: Record<string, number> = { ...zero };
  const points: Record<string, number | string>[] = [];
  for (let bucket = first; bucket < end; bucket += seconds) {
    const row = byBucket.get(bucket);
    const counts: Record<string, number> = {};
    for (const key of keys) {
      counts[key] = row?.[key] ?? 0;
      totals[key] = (totals[key] ?? 0) + counts[key];
    }
    points.push({ time: new Date(bucket * 1000).toISOString(), ...counts });
  }
  return { points: points as (Counts & { time: string })[], totals: totals as Counts };
}
