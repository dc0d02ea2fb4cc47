import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Seconds per usage sample: the 95th percentile of a month is taken over these. */
export const USAGE_SAMPLE_SECONDS = 300;

// Frozen once landed. Site traffic per 5 minutes, the samples of the monthly 95th percentile, added
// by the ingest in the batch's transaction like the minute, hour and day rollups. Its own table
// rather than the minute rollup: a month is 8,640 rows a site here against 43,200 there, and the
// minute rollup only serves charts up to 1,000 minutes, so it may be kept for days, not a month.
// The lines already stored are rolled up once here.
export const usage5min = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('site_traffic_5min')
      .addColumn('site_id', 'bigint', (c) => c.notNull())
      .addColumn('bucket', 'bigint', (c) => c.notNull())
      .addColumn('requests', 'bigint', (c) => c.notNull())
      .addColumn('bytes_in', 'bigint', (c) => c.notNull())
      .addColumn('bytes_out', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('site_traffic_5min_pk', ['site_id', 'bucket'])
      .execute();
    // Every site of a month at once (the admin's ranking) and retention read by time alone.
    await db.schema.createIndex('site_traffic_5min_bucket').on('site_traffic_5min').column('bucket').execute();
    const ms = USAGE_SAMPLE_SECONDS * 1000;
    await sql`insert into site_traffic_5min (site_id, bucket, requests, bytes_in, bytes_out)
      select site_id, (time_ms / ${sql.lit(ms)}) * ${sql.lit(USAGE_SAMPLE_SECONDS)}, count(*), sum(bytes_received), sum(bytes_sent)
      from access_logs where site_id > 0
      group by site_id, time_ms / ${sql.lit(ms)}`.execute(db);
  },
});
