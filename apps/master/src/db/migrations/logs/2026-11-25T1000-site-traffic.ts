import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { ipKey } from '../../ip-key.ts';

export const TRAFFIC_ROLLUPS = [
  { table: 'site_traffic_minutes', seconds: 60 },
  { table: 'site_traffic_hours', seconds: 3600 },
  { table: 'site_traffic_days', seconds: 86_400 },
] as const;

const BACKFILL_BATCH = 2000;

// Frozen once landed. Site traffic rolled up by minute, hour and UTC day (the ingest adds each
// batch in the batch's transaction), so a chart of any range reads at most about 1000 rows a site;
// the rows already stored are rolled up here once. `client_ip_key` is the address as 32 hex digits
// (IPv4 mapped into IPv6), so a CIDR filter is a range comparison on both databases.
export const siteTraffic = (): Migration => ({
  async up(db: Kysely<unknown>) {
    for (const { table, seconds } of TRAFFIC_ROLLUPS) {
      await db.schema
        .createTable(table)
        .addColumn('site_id', 'bigint', (c) => c.notNull())
        .addColumn('bucket', 'bigint', (c) => c.notNull())
        .addColumn('requests', 'bigint', (c) => c.notNull())
        .addColumn('bytes_in', 'bigint', (c) => c.notNull())
        .addColumn('bytes_out', 'bigint', (c) => c.notNull())
        .addColumn('status_2xx', 'bigint', (c) => c.notNull())
        .addColumn('status_3xx', 'bigint', (c) => c.notNull())
        .addColumn('status_4xx', 'bigint', (c) => c.notNull())
        .addColumn('status_5xx', 'bigint', (c) => c.notNull())
        .addColumn('cache_hits', 'bigint', (c) => c.notNull())
        .addColumn('blocked', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['site_id', 'bucket'])
        .execute();
      // Every site at once (an admin) and retention read by time alone.
      await db.schema.createIndex(`${table}_bucket`).on(table).column('bucket').execute();
      const ms = seconds * 1000;
      await sql`insert into ${sql.table(table)} (site_id, bucket, requests, bytes_in, bytes_out, status_2xx,
          status_3xx, status_4xx, status_5xx, cache_hits, blocked)
        select site_id, (time_ms / ${sql.lit(ms)}) * ${sql.lit(seconds)}, count(*), sum(bytes_received), sum(bytes_sent),
          sum(case when status >= 200 and status < 300 then 1 else 0 end),
          sum(case when status >= 300 and status < 400 then 1 else 0 end),
          sum(case when status >= 400 and status < 500 then 1 else 0 end),
          sum(case when status >= 500 and status < 600 then 1 else 0 end),
          sum(case when cache_status = 'HIT' then 1 else 0 end),
          sum(case when block_reason <> '' then 1 else 0 end)
        from access_logs where site_id > 0
        group by site_id, time_ms / ${sql.lit(ms)}`.execute(db);
    }
    await db.schema.alterTable('access_logs').addColumn('client_ip_key', 'text').execute();
    await backfillIpKeys(db);
  },
});

/** Keys for the lines already stored, in batches by id (the rowid on SQLite, the key's first column on PostgreSQL). */
async function backfillIpKeys(db: Kysely<unknown>) {
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number | string; client_ip: string }>`select id, client_ip from access_logs
      where id > ${after} order by id limit ${BACKFILL_BATCH}`.execute(db);
    if (rows.length === 0) return;
    for (const row of rows) {
      const key = ipKey(row.client_ip);
      if (key) await sql`update access_logs set client_ip_key = ${key} where id = ${row.id}`.execute(db);
    }
    after = Number(rows[rows.length - 1]?.id);
  }
}
