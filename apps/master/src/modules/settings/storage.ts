import { type Kysely, sql } from 'kysely';
import { clickHouseBytes } from '../../db/clickhouse/retention.ts';
import type { Dialect } from '../../db/database.ts';
import type { EventStore } from '../../db/events.ts';
import type { LogDatabase } from '../../db/logs-schema.ts';
import type { Database } from '../../db/schema.ts';

/** The logs store's tables (and on PostgreSQL their day partitions `<table>_YYYY_MM_DD`). */
const LOG_TABLES: readonly (keyof LogDatabase | 'kysely_migration_logs' | 'kysely_migration_logs_lock')[] = [
  'log_batches',
  'access_logs',
  'stream_logs',
  'node_metrics',
  'site_minutes',
  'site_traffic_minutes',
  'site_traffic_hours',
  'site_traffic_days',
  'site_totals_minutes',
  'site_totals_hours',
  'site_totals_days',
  'stream_traffic_minutes',
  'stream_traffic_hours',
  'stream_traffic_days',
  'node_metric_minutes',
  'node_metric_hours',
  'node_metric_days',
  'site_traffic_5min',
  'kysely_migration_logs',
  'kysely_migration_logs_lock',
];

const isLogTable = (name: string) =>
  LOG_TABLES.includes(name as (typeof LOG_TABLES)[number]) ||
  LOG_TABLES.includes(name.replace(/_\d{4}_\d{2}_\d{2}$/, '') as (typeof LOG_TABLES)[number]);

const sqliteBytes = async (db: Kysely<unknown>) => {
  const { rows } = await sql<{ bytes: number }>`
    select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
  return Number(rows[0]?.bytes ?? 0);
};

/**
 * Bytes each store takes on disk: on SQLite its file's pages; on PostgreSQL, where both stores share
 * the schema, the tables and indexes of each (partitions counted with their table); and ClickHouse's
 * parts when the logs and rollups live there.
 */
export async function storageBytes(stores: {
  db: Kysely<Database>;
  logs: Kysely<LogDatabase>;
  dialect: Dialect;
  events: EventStore;
}) {
  const clickhouse =
    stores.events.kind === 'clickhouse' ? { clickhouse_bytes: await clickHouseBytes(stores.events.clickhouse) } : {};
  return { ...(await sqlBytes(stores)), ...clickhouse };
}

async function sqlBytes(stores: { db: Kysely<Database>; logs: Kysely<LogDatabase>; dialect: Dialect }) {
  if (stores.dialect === 'sqlite') {
    const [config, logs] = await Promise.all([
      sqliteBytes(stores.db as Kysely<unknown>),
      sqliteBytes(stores.logs as Kysely<unknown>),
    ]);
    return { config_bytes: config, logs_bytes: logs };
  }
  const { rows } = await sql<{ name: string; bytes: string | number }>`
    select c.relname as name, pg_total_relation_size(c.oid) as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r'`.execute(stores.db);
  let config = 0;
  let logs = 0;
  for (const row of rows) {
    if (isLogTable(row.name)) logs += Number(row.bytes);
    else config += Number(row.bytes);
  }
  return { config_bytes: config, logs_bytes: logs };
}
