import { type Kysely, sql } from 'kysely';
import { dropClickHousePartitionsBefore } from '../../db/clickhouse/retention.ts';
import { PARTITIONS, type PartitionedTable } from '../../db/clickhouse/schema.ts';
import type { Dialect } from '../../db/database.ts';
import type { EventStore } from '../../db/events.ts';
import type { LogDatabase } from '../../db/logs-schema.ts';
import { dropDayPartitionsBefore } from '../../db/partition-retention.ts';
import type { Settings } from '../settings/settings.service.ts';

const DAY_MS = 86_400_000;
const BATCH = 5000;
/** A round deletes at most this many batches per table, so a backlog never holds the database long. */
const MAX_BATCHES = 20;

type Retained = Pick<Settings, 'access_log_days' | 'minute_rollup_days' | 'hour_rollup_days' | 'usage_sample_days'>;

/** Every table of the logs store with its time column, the column's unit, and the setting that keeps it. */
const TABLES: readonly {
  table: keyof LogDatabase;
  column: string;
  unit: 'ms' | 's';
  keep: keyof Retained;
  /** PostgreSQL partitions it by day (dropped whole). */
  partitioned?: boolean;
}[] = [
  { table: 'access_logs', column: 'time_ms', unit: 'ms', keep: 'access_log_days', partitioned: true },
  { table: 'stream_logs', column: 'time_ms', unit: 'ms', keep: 'access_log_days', partitioned: true },
  { table: 'site_minutes', column: 'minute', unit: 's', keep: 'access_log_days', partitioned: true },
  { table: 'log_batches', column: 'received_at', unit: 'ms', keep: 'access_log_days' },
  { table: 'node_metrics', column: 'time', unit: 's', keep: 'minute_rollup_days', partitioned: true },
  { table: 'site_traffic_minutes', column: 'bucket', unit: 's', keep: 'minute_rollup_days' },
  { table: 'site_totals_minutes', column: 'bucket', unit: 's', keep: 'minute_rollup_days' },
  { table: 'stream_traffic_minutes', column: 'bucket', unit: 's', keep: 'minute_rollup_days' },
  { table: 'node_metric_minutes', column: 'bucket', unit: 's', keep: 'minute_rollup_days' },
  { table: 'site_traffic_hours', column: 'bucket', unit: 's', keep: 'hour_rollup_days' },
  { table: 'site_totals_hours', column: 'bucket', unit: 's', keep: 'hour_rollup_days' },
  { table: 'stream_traffic_hours', column: 'bucket', unit: 's', keep: 'hour_rollup_days' },
  { table: 'node_metric_hours', column: 'bucket', unit: 's', keep: 'hour_rollup_days' },
  { table: 'site_traffic_5min', column: 'bucket', unit: 's', keep: 'usage_sample_days' },
];

const isClickHouseTable = (table: string): table is PartitionedTable => table in PARTITIONS;

/** Deletes at most BATCH rows of `table` older than `cutoff` (in the column's unit); answers how many went. */
async function deleteBatch(logs: Kysely<LogDatabase>, dialect: Dialect, table: string, column: string, cutoff: number) {
  const t = sql.table(table);
  const c = sql.ref(column);
  const key = dialect === 'postgres' ? sql.raw('ctid') : sql.raw('rowid');
  const result =
    await sql`delete from ${t} where ${key} in (select ${key} from ${t} where ${c} < ${sql.lit(cutoff)} limit ${sql.lit(BATCH)})`.execute(
      logs,
    );
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Drops traffic data past its retention, tier by tier: on PostgreSQL the day partitions of the raw
 * tables go whole, and in ClickHouse (`events`) the day partitions of the logs and rollups it holds;
 * everything else is deleted in bounded batches (a backlog takes several rounds).
 * Answers the rows deleted and partitions dropped per table.
 */
export async function pruneTrafficData(
  logs: Kysely<LogDatabase>,
  dialect: Dialect,
  retained: Retained,
  now = Date.now(),
  events?: EventStore,
): Promise<Record<string, number>> {
  const outcome: Record<string, number> = {};
  for (const { table, column, unit, keep, partitioned } of TABLES) {
    const cutoffMs = now - retained[keep] * DAY_MS;
    let gone = 0;
    if (events?.kind === 'clickhouse' && isClickHouseTable(table)) {
      // ClickHouse keeps these by day partitions: whole days go, counted as partitions.
      gone = await dropClickHousePartitionsBefore(events.clickhouse, table, cutoffMs);
    } else if (partitioned && dialect === 'postgres') {
      gone = (await dropDayPartitionsBefore(logs, table, cutoffMs)).length;
    } else {
      const cutoff = unit === 'ms' ? cutoffMs : Math.floor(cutoffMs / 1000);
      for (let round = 0; round < MAX_BATCHES; round++) {
        const deleted = await deleteBatch(logs, dialect, table, column, cutoff);
        gone += deleted;
        if (deleted < BATCH) break;
      }
    }
    if (gone > 0) outcome[table] = gone;
  }
  return outcome;
}

/**
 * The finest rollup that fits the range in MONITOR_LIMITS.maxPoints and still holds its start:
 * per-minute rows are kept `minute_rollup_days`, per-hour `hour_rollup_days`, per-day for good.
 */
export function retainedRollup<
  Rollups extends readonly [{ seconds: number }, { seconds: number }, { seconds: number }],
>(
  rollups: Rollups,
  range: { fromMs: number; toMs: number; now: number },
  retained: Pick<Settings, 'minute_rollup_days' | 'hour_rollup_days'>,
  maxPoints: number,
): Rollups[number] {
  const [minutes, hours, days] = rollups;
  const fits = (rollup: { seconds: number }) => (range.toMs - range.fromMs) / (rollup.seconds * 1000) <= maxPoints;
  const kept = (daysKept: number) => range.fromMs >= range.now - daysKept * DAY_MS;
  if (fits(minutes) && kept(retained.minute_rollup_days)) return minutes;
  if (fits(hours) && kept(retained.hour_rollup_days)) return hours;
  return days;
}
