import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../../database.ts';

// Frozen once landed. Indexed for the analytics queries: by site and time, by node and time.
export const logs = (dialect: Dialect): Migration => {
  const idType = dialect === 'postgres' ? 'bigserial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const real = dialect === 'postgres' ? 'double precision' : 'real';
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
      await db.schema
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
        .addColumn('block_reason', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('access_logs_site_time').on('access_logs').columns(['site_id', 'time_ms']).execute();
      await db.schema.createIndex('access_logs_time').on('access_logs').column('time_ms').execute();
      await db.schema
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
        .addColumn('upstream', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('stream_logs_stream_time')
        .on('stream_logs')
        .columns(['stream_id', 'time_ms'])
        .execute();
      await db.schema
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
        .addPrimaryKeyConstraint('node_metrics_pk', ['node_id', 'time'])
        .execute();
      await db.schema
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
        .addPrimaryKeyConstraint('site_minutes_pk', ['site_id', 'minute', 'node_id'])
        .execute();
      await db.schema.createIndex('site_minutes_minute').on('site_minutes').column('minute').execute();
    },
  };
};
