import type { StreamTrafficCounts } from '@rampart/contracts';
import { type Kysely, sql } from 'kysely';
import { inIds } from '../../db/id-list.ts';
import type { EventDatabase } from '../../db/logs-schema.ts';
import { ALL_STREAMS, type StreamRollupTable } from './stream-rollup.repository.ts';
import type { StreamScope } from './stream-scope.repository.ts';

export type StreamBucketCounts = StreamTrafficCounts & { bucket: number };

const total = (column: keyof StreamTrafficCounts) => sql<number | string>`sum(${sql.ref(column)})`.as(column);

/**
 * The scope's stream traffic per interval of one rollup, for buckets in [from, to) (seconds), read
 * through the (stream_id, bucket) key: the scope's streams, or every stream's totals row.
 */
export async function readStreamTraffic(
  logs: Kysely<EventDatabase>,
  scope: StreamScope,
  table: StreamRollupTable,
  from: number,
  to: number,
): Promise<StreamBucketCounts[]> {
  if (scope.kind === 'streams' && scope.ids.length === 0) return [];
  const rows = await logs
    .selectFrom(table)
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .$if(scope.kind === 'streams', (qb) => qb.where(inIds('stream_id', scope.kind === 'streams' ? scope.ids : [])))
    // Every stream: the totals row of each interval, not a row per stream.
    .$if(scope.kind === 'all', (qb) => qb.where('stream_id', '=', ALL_STREAMS))
    .select([
      'bucket',
      total('connections'),
      total('failed'),
      total('bytes_in'),
      total('bytes_out'),
      total('session_ms'),
    ])
    .groupBy('bucket')
    .orderBy('bucket')
    .execute();
  // PostgreSQL sums bigints as numeric, which arrives as text.
  return rows.map((row) => ({
    bucket: Number(row.bucket),
    connections: Number(row.connections),
    failed: Number(row.failed),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
    session_ms: Number(row.session_ms),
  }));
}
