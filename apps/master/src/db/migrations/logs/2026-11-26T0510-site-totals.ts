import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { TRAFFIC_ROLLUPS } from './2026-11-25T1000-site-traffic.ts';

/** Every site's traffic together per minute, hour and UTC day: an administrator's chart of all sites. */
export const SITE_TOTALS = [
  { table: 'site_totals_minutes', rollup: 'site_traffic_minutes', seconds: 60 },
  { table: 'site_totals_hours', rollup: 'site_traffic_hours', seconds: 3600 },
  { table: 'site_totals_days', rollup: 'site_traffic_days', seconds: 86_400 },
] as const satisfies readonly { table: string; rollup: (typeof TRAFFIC_ROLLUPS)[number]['table']; seconds: number }[];

const COUNTS = [
  'requests',
  'bytes_in',
  'bytes_out',
  'status_2xx',
  'status_3xx',
  'status_4xx',
  'status_5xx',
  'cache_hits',
  'blocked',
] as const;

// Frozen once landed. A chart of every site read every site's row of each interval (10,000 sites:
// 7.2 million rows for 30 days of hours); these hold one row an interval, added by the ingest beside
// the per-site rollups, and are summed here once from the per-site rows already stored.
export const siteTotals = (): Migration => ({
  async up(db: Kysely<unknown>) {
    for (const { table, rollup } of SITE_TOTALS) {
      let builder = db.schema.createTable(table).addColumn('bucket', 'bigint', (c) => c.primaryKey());
      for (const column of COUNTS) builder = builder.addColumn(column, 'bigint', (c) => c.notNull());
      await builder.execute();
      const columns = sql.join(COUNTS.map((column) => sql.ref(column)));
      const sums = sql.join(COUNTS.map((column) => sql`sum(${sql.ref(column)})`));
      await sql`insert into ${sql.table(table)} (bucket, ${columns})
        select bucket, ${sums} from ${sql.table(rollup)} group by bucket`.execute(db);
    }
  },
});
