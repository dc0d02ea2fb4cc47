import type { TrafficCounts } from '@rampart/contracts';
import { type Kysely, sql } from 'kysely';
import { inIds } from '../../db/id-list.ts';
import type { EventDatabase } from '../../db/logs-schema.ts';
import type { SiteScope } from './site-scope.repository.ts';
import { type RollupTable, SITE_TOTALS } from './traffic-rollup.repository.ts';

export type BucketCounts = TrafficCounts & { bucket: number };

const total = (column: keyof TrafficCounts) => sql<number | string>`sum(${sql.ref(column)})`.as(column);

/**
 * The scope's traffic per interval of one rollup, for buckets in [from, to) (seconds): at most
 * (to - from) / interval rows, read through the (site_id, bucket) key, or for every site from the
 * rollup's totals (one row an interval).
 */
export async function readTraffic(
  logs: Kysely<EventDatabase>,
  scope: SiteScope,
  table: RollupTable,
  from: number,
  to: number,
): Promise<BucketCounts[]> {
  if (scope.kind === 'sites' && scope.ids.length === 0) return [];
  const columns = [
    'bucket',
    total('requests'),
    total('bytes_in'),
    total('bytes_out'),
    total('status_2xx'),
    total('status_3xx'),
    total('status_4xx'),
    total('status_5xx'),
    total('cache_hits'),
    total('blocked'),
  ] as const;
  // Every site: the totals row of each interval, not a row per site.
  const totals = SITE_TOTALS.find((entry) => entry.rollup === table)?.table;
  const rows =
    scope.kind === 'all' && totals
      ? await logs
          .selectFrom(totals)
          .where('bucket', '>=', from)
          .where('bucket', '<', to)
          .select(columns)
          .groupBy('bucket')
          .orderBy('bucket')
          .execute()
      : await logs
          .selectFrom(table)
          .where('bucket', '>=', from)
          .where('bucket', '<', to)
          .$if(scope.kind === 'sites', (qb) => qb.where(inIds('site_id', scope.kind === 'sites' ? scope.ids : [])))
          .select(columns)
          .groupBy('bucket')
          .orderBy('bucket')
          .execute();
  // PostgreSQL sums bigints as numeric, which arrives as text.
  return rows.map((row) => ({
    bucket: Number(row.bucket),
    requests: Number(row.requests),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
    status_2xx: Number(row.status_2xx),
    status_3xx: Number(row.status_3xx),
    status_4xx: Number(row.status_4xx),
    status_5xx: Number(row.status_5xx),
    cache_hits: Number(row.cache_hits),
    blocked: Number(row.blocked),
  }));
}
