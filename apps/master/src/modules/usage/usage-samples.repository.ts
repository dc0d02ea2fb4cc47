import type { Kysely } from 'kysely';
import type { LogDatabase, SiteTrafficTable } from '../../db/logs-schema.ts';
import { USAGE_SAMPLE_SECONDS } from '../../db/migrations/logs/2026-11-25T1120-usage-5min.ts';
import { rollUp } from '../monitor/traffic-rollup.repository.ts';

// 5 columns a row: 500 rows stay far below SQLite's bound-parameter limit.
const CHUNK = 500;

/**
 * Adds a batch's traffic (its lines summed by `sumMinutes`) to the 5-minute usage samples. Runs in
 * the transaction that claims the batch (beside the traffic rollups), so a batch sent again is not
 * counted twice.
 */
export async function addUsageSamples(trx: Kysely<LogDatabase>, minutes: readonly SiteTrafficTable[]): Promise<void> {
  // Sorted by (site, bucket) like the rollups: concurrent batches take the row locks in one order.
  const rows = rollUp(minutes, USAGE_SAMPLE_SECONDS).map(({ site_id, bucket, requests, bytes_in, bytes_out }) => ({
    site_id,
    bucket,
    requests,
    bytes_in,
    bytes_out,
  }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto('site_traffic_5min')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['site_id', 'bucket']).doUpdateSet((eb) => ({
          requests: eb(eb.ref('site_traffic_5min.requests'), '+', eb.ref('excluded.requests')),
          bytes_in: eb(eb.ref('site_traffic_5min.bytes_in'), '+', eb.ref('excluded.bytes_in')),
          bytes_out: eb(eb.ref('site_traffic_5min.bytes_out'), '+', eb.ref('excluded.bytes_out')),
        })),
      )
      .execute();
  }
}
