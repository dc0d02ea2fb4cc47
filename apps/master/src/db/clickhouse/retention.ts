import { literal } from './literal.ts';
import type { PartitionedTable } from './schema.ts';
import type { ClickHouseStore } from './store.ts';

const DAY_MS = 86_400_000;

/**
 * Drops the day partitions of a ClickHouse table that end at or before `cutoffMs` (whole days
 * only, as on PostgreSQL: the day holding the cutoff stays until the next). Answers the days dropped.
 */
export async function dropClickHousePartitionsBefore(
  store: ClickHouseStore,
  table: PartitionedTable,
  cutoffMs: number,
): Promise<number> {
  const result = await store.client.query({
    query: `SELECT DISTINCT partition FROM system.parts
      WHERE database = ${literal(store.database)} AND table = ${literal(table)} AND active`,
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ partition: string }>();
  let dropped = 0;
  // Every partitioned table is partitioned by its UTC day number (schema.ts: time_ms or bucket over a day).
  for (const { partition } of rows) {
    const day = Number(partition);
    if (!Number.isInteger(day) || (day + 1) * DAY_MS > cutoffMs) continue;
    await store.client.command({ query: `ALTER TABLE ${table} DROP PARTITION ${literal(day)}` });
    dropped++;
  }
  return dropped;
}

/** Bytes the store's tables take on disk (their active parts). */
export async function clickHouseBytes(store: ClickHouseStore): Promise<number> {
  const result = await store.client.query({
    query: `SELECT sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = ${literal(store.database)} AND active`,
    format: 'JSONEachRow',
    clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
  });
  const [row] = await result.json<{ bytes: number }>();
  return Number(row?.bytes ?? 0);
}
