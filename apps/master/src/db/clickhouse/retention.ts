import { literal } from './literal.ts';
import { PARTITIONS, type PartitionedTable } from './schema.ts';
import type { ClickHouseStore } from './store.ts';

/**
 * Drops the partitions of a ClickHouse table that end at or before `cutoffMs` (whole partitions
 * only, as on PostgreSQL: the one holding the cutoff stays until it has passed). Answers how many.
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
  const { unit, span } = PARTITIONS[table];
  const msPerUnit = unit === 'ms' ? 1 : 1000;
  let dropped = 0;
  // Partition p holds [p × span, (p + 1) × span) of the table's time column (schema.ts).
  for (const { partition } of rows) {
    const index = Number(partition);
    if (!Number.isInteger(index) || (index + 1) * span * msPerUnit > cutoffMs) continue;
    await store.client.command({ query: `ALTER TABLE ${table} DROP PARTITION ${literal(index)}` });
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
