import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../../database.ts';

// Frozen once landed. Indexed for the analytics queries: by site and time, by node and time. On
// PostgreSQL the time-series tables are partitioned by day (partitions are made as data arrives,
// see ensureDayPartitions); a partitioned table's primary key must include the partition column.
export const logs = (dialect: Dialect): Migration => {
  const pg = dialect === 'postgres';
  const idType = pg ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (pg ? c.notNull() : c.primaryKey().autoIncrement());
  const real = pg ? 'double precision' : 'real';
  const byDay = <T extends string, C extends string>(
    table: CreateTableBuilder<T, C>,
    name: string,
    column: C,
    key: C[],
  ) =>
    pg
      ? table.addPrimaryKeyConstraint(`${name}_pk`, key).modifyEnd(sql`partition by range (${sql.ref(column)})`)
      : table;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('log_batches')
        .addColumn('node_id', 'bigint', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('lines', 'integer', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('log_batches_pk', ['node_id', 'seq'])
        .execute();
      await byDay(
        db.schema
          .createTable('access_logs')
          .addColumn('id', idType, id)
          .addColumn('node_id', 'bigint', (c) => c.notNull())
          .addColumn('site_id', 'bigint', (c) => c.notNull())
          .addColumn('time_ms', 'bigint', (c) => c.notNull())
          .addColumn('client_ip', 'text', (c) => c.notNull())
          .addColumn('method', 'text', (c) => c.notNull())
          .addColumn('host', 'text', (c) => c.notNull())
          .addColumn('uri', 'text', (c) => c.notNull())
          .addColumn('status', 'integer', (c) => c.notNull())
          .addColumn('bytes_sent', 'bigint', (c) => c.notNull())
          .addColumn('bytes_received', 'bigint', (c) => c.notNull())
          .addColumn('request_time_ms', 'integer', (c) => c.notNull())
          .addColumn('upstream_time_ms', 'integer')
          .addColumn('cache_status', 'text', (c) => c.notNull())
          .addColumn('user_agent', 'text', (c) => c.notNull())
          .addColumn('referer', 'text', (c) => c.notNull())
          .addColumn('block_reason', 'text', (c) => c.notNull()),
        'access_logs',
        'time_ms',
        ['id', 'time_ms'],
      ).execute();
      await db.schema.createIndex('access_logs_site_time').on('access_logs').columns(['site_id', 'time_ms']).execute();
      await db.schema.createIndex('access_logs_time').on('access_logs').column('time_ms').execute();
      await byDay(
        db.schema
          .createTable('stream_logs')
          .addColumn('id', idType, id)
          .addColumn('node_id', 'bigint', (c) => c.notNull())
          .addColumn('stream_id', 'bigint', (c) => c.notNull())
          .addColumn('time_ms', 'bigint', (c) => c.notNull())
          .addColumn('client_ip', 'text', (c) => c.notNull())
          .addColumn('protocol', 'text', (c) => c.notNull())
          .addColumn('status', 'integer', (c) => c.notNull())
          .addColumn('bytes_sent', 'bigint', (c) => c.notNull())
          .addColumn('bytes_received', 'bigint', (c) => c.notNull())
          .addColumn('session_time_ms', 'integer', (c) => c.notNull())
          .addColumn('upstream', 'text', (c) => c.notNull()),
        'stream_logs',
        'time_ms',
        ['id', 'time_ms'],
      ).execute();
      await db.schema
        .createIndex('stream_logs_stream_time')
        .on('stream_logs')
        .columns(['stream_id', 'time_ms'])
        .execute();
      await byDay(
        db.schema
          .createTable('node_metrics')
          .addColumn('node_id', 'bigint', (c) => c.notNull())
          .addColumn('time', 'bigint', (c) => c.notNull())
          .addColumn('cpu_percent', real, (c) => c.notNull())
          .addColumn('memory_used_bytes', 'bigint', (c) => c.notNull())
          .addColumn('memory_total_bytes', 'bigint', (c) => c.notNull())
          .addColumn('load1', real, (c) => c.notNull())
          .addColumn('connections', 'integer', (c) => c.notNull())
          .addColumn('bytes_in', 'bigint', (c) => c.notNull())
          .addColumn('bytes_out', 'bigint', (c) => c.notNull())
          .$call((table) => (pg ? table : table.addPrimaryKeyConstraint('node_metrics_pk', ['node_id', 'time']))),
        'node_metrics',
        'time',
        ['node_id', 'time'],
      ).execute();
      await byDay(
        db.schema
          .createTable('site_minutes')
          .addColumn('site_id', 'bigint', (c) => c.notNull())
          .addColumn('minute', 'bigint', (c) => c.notNull())
          .addColumn('node_id', 'bigint', (c) => c.notNull())
          .addColumn('requests', 'bigint', (c) => c.notNull())
          .addColumn('bytes_in', 'bigint', (c) => c.notNull())
          .addColumn('bytes_out', 'bigint', (c) => c.notNull())
          .addColumn('status_2xx', 'bigint', (c) => c.notNull())
          .addColumn('status_3xx', 'bigint', (c) => c.notNull())
          .addColumn('status_4xx', 'bigint', (c) => c.notNull())
          .addColumn('status_5xx', 'bigint', (c) => c.notNull())
          .addColumn('cache_hits', 'bigint', (c) => c.notNull())
          .$call((table) =>
            pg ? table : table.addPrimaryKeyConstraint('site_minutes_pk', ['site_id', 'minute', 'node_id']),
          ),
        'site_minutes',
        'minute',
        ['site_id', 'minute', 'node_id'],
      ).execute();
      await db.schema.createIndex('site_minutes_minute').on('site_minutes').column('minute').execute();
    },
  };
};
