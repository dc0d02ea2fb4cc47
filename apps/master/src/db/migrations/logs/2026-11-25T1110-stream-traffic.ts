import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { ipKey } from '../../ip-key.ts';

export const STREAM_ROLLUPS = [
  { table: 'stream_traffic_minutes', seconds: 60 },
  { table: 'stream_traffic_hours', seconds: 3600 },
  { table: 'stream_traffic_days', seconds: 86_400 },
] as const;

export const NODE_ROLLUPS = [
  { table: 'node_metric_minutes', seconds: 60 },
  { table: 'node_metric_hours', seconds: 3600 },
  { table: 'node_metric_days', seconds: 86_400 },
] as const;

const BACKFILL_BATCH = 2000;

// Frozen once landed. Stream traffic (a stream log line is one ended connection or session) and
// node metrics (a report every few seconds) rolled up by minute, hour and UTC day, added in the
// ingest's transaction, so a 30-day chart reads at most about 1000 rows a stream or node (stream 0
// holds every stream's totals, for an admin's chart of every stream); the rows already stored are
// rolled up here once. Node gauges are kept as sums with the number of reports
// (the mean is sum / reports); disk and load5/15 came later (`extended_reports` counts the reports
// that carry them). Stream lines get the client address key of the site log for CIDR filters.
export const streamTraffic = (): Migration => ({
  async up(db: Kysely<unknown>) {
    for (const { table, seconds } of STREAM_ROLLUPS) {
      await db.schema
        .createTable(table)
        .addColumn('stream_id', 'bigint', (c) => c.notNull())
        .addColumn('bucket', 'bigint', (c) => c.notNull())
        .addColumn('connections', 'bigint', (c) => c.notNull())
        .addColumn('failed', 'bigint', (c) => c.notNull())
        .addColumn('bytes_in', 'bigint', (c) => c.notNull())
        .addColumn('bytes_out', 'bigint', (c) => c.notNull())
        .addColumn('session_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['stream_id', 'bucket'])
        .execute();
      await db.schema.createIndex(`${table}_bucket`).on(table).column('bucket').execute();
      const ms = seconds * 1000;
      await sql`insert into ${sql.table(table)} (stream_id, bucket, connections, failed, bytes_in, bytes_out, session_ms)
        select stream_id, (time_ms / ${sql.lit(ms)}) * ${sql.lit(seconds)}, count(*),
          sum(case when status >= 400 then 1 else 0 end), sum(bytes_received), sum(bytes_sent), sum(session_time_ms)
        from stream_logs where stream_id > 0
        group by stream_id, time_ms / ${sql.lit(ms)}`.execute(db);
      // Stream 0: every stream together, so an admin's chart reads one row an interval.
      await sql`insert into ${sql.table(table)} (stream_id, bucket, connections, failed, bytes_in, bytes_out, session_ms)
        select 0, (time_ms / ${sql.lit(ms)}) * ${sql.lit(seconds)}, count(*),
          sum(case when status >= 400 then 1 else 0 end), sum(bytes_received), sum(bytes_sent), sum(session_time_ms)
        from stream_logs where stream_id > 0
        group by time_ms / ${sql.lit(ms)}`.execute(db);
    }
    await db.schema.alterTable('stream_logs').addColumn('client_ip_key', 'text').execute();
    await backfillIpKeys(db);
    // Every stream at once (an admin) reads by time alone.
    await db.schema.createIndex('stream_logs_time').on('stream_logs').column('time_ms').execute();
    // A node's client addresses (ip-log) and a node's sites (top).
    await db.schema.createIndex('access_logs_node_time').on('access_logs').columns(['node_id', 'time_ms']).execute();
    await db.schema.createIndex('stream_logs_node_time').on('stream_logs').columns(['node_id', 'time_ms']).execute();
    await db.schema.createIndex('site_minutes_node_minute').on('site_minutes').columns(['node_id', 'minute']).execute();

    for (const column of ['requests', 'disk_used_bytes', 'disk_total_bytes'] as const) {
      await db.schema.alterTable('node_metrics').addColumn(column, 'bigint').execute();
    }
    for (const column of ['load5', 'load15'] as const) {
      await db.schema.alterTable('node_metrics').addColumn(column, 'double precision').execute();
    }
    // 1 when nginx answered the agent's status request, 0 when not; null from older agents.
    await db.schema.alterTable('node_metrics').addColumn('nginx_up', 'integer').execute();
    for (const { table, seconds } of NODE_ROLLUPS) {
      await db.schema
        .createTable(table)
        .addColumn('node_id', 'bigint', (c) => c.notNull())
        .addColumn('bucket', 'bigint', (c) => c.notNull())
        .addColumn('reports', 'bigint', (c) => c.notNull())
        .addColumn('extended_reports', 'bigint', (c) => c.notNull())
        .addColumn('bytes_in', 'bigint', (c) => c.notNull())
        .addColumn('bytes_out', 'bigint', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addColumn('connections_sum', 'bigint', (c) => c.notNull())
        .addColumn('cpu_sum', 'double precision', (c) => c.notNull())
        .addColumn('memory_used_sum', 'bigint', (c) => c.notNull())
        .addColumn('memory_total_sum', 'bigint', (c) => c.notNull())
        .addColumn('load1_sum', 'double precision', (c) => c.notNull())
        .addColumn('load5_sum', 'double precision', (c) => c.notNull())
        .addColumn('load15_sum', 'double precision', (c) => c.notNull())
        .addColumn('disk_used_sum', 'bigint', (c) => c.notNull())
        .addColumn('disk_total_sum', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['node_id', 'bucket'])
        .execute();
      await db.schema.createIndex(`${table}_bucket`).on(table).column('bucket').execute();
      await sql`insert into ${sql.table(table)} (node_id, bucket, reports, extended_reports, bytes_in, bytes_out,
          requests, connections_sum, cpu_sum, memory_used_sum, memory_total_sum, load1_sum, load5_sum, load15_sum,
          disk_used_sum, disk_total_sum)
        select node_id, (time / ${sql.lit(seconds)}) * ${sql.lit(seconds)}, count(*), 0, sum(bytes_in), sum(bytes_out),
          0, sum(connections), sum(cpu_percent), sum(memory_used_bytes), sum(memory_total_bytes), sum(load1), 0, 0, 0, 0
        from node_metrics
        group by node_id, time / ${sql.lit(seconds)}`.execute(db);
    }
  },
});

/** Keys for the lines already stored, in batches by id (the rowid on SQLite, the key's first column on PostgreSQL). */
async function backfillIpKeys(db: Kysely<unknown>) {
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number | string; client_ip: string }>`select id, client_ip from stream_logs
      where id > ${after} order by id limit ${BACKFILL_BATCH}`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      const key = ipKey(row.client_ip);
      if (key) await sql`update stream_logs set client_ip_key = ${key} where id = ${row.id}`.execute(db);
    }
    after = Number(rows[rows.length - 1]?.id);
  }
}
