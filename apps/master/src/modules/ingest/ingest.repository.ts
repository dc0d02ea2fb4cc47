import type { AccessLogLine, LogBatchBody, NodeMetricsBody, StreamLogLine } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { ClickHouseStore } from '../../db/clickhouse/store.ts';
import type { Dialect } from '../../db/database.ts';
import type { EventStore } from '../../db/events.ts';
import { ipKey } from '../../db/ip-key.ts';
import type { LogDatabase } from '../../db/logs-schema.ts';
import { ensureDayPartitions } from '../../db/partitions.ts';
import { addNodeRollups } from '../monitor/node-rollup.repository.ts';
import { addStreamRollups } from '../monitor/stream-rollup.repository.ts';
import { addTrafficRollups } from '../monitor/traffic-rollup.repository.ts';
import { addUsageSamples } from '../usage/usage-samples.repository.ts';

// 17 columns a row: 500 rows stay far below SQLite's bound-parameter limit.
const CHUNK = 500;

const accessRow = (nodeId: number, line: AccessLogLine) => ({
  node_id: nodeId,
  site_id: line.site_id,
  time_ms: Math.round(line.time * 1000),
  client_ip: line.client_ip,
  method: line.method,
  host: line.host,
  uri: line.uri,
  status: line.status,
  bytes_sent: line.bytes_sent,
  bytes_received: line.bytes_received,
  request_time_ms: Math.round(line.request_time * 1000),
  upstream_time_ms: line.upstream_time === null ? null : Math.round(line.upstream_time * 1000),
  cache_status: line.cache_status,
  user_agent: line.user_agent,
  referer: line.referer,
  block_reason: line.block_reason,
  client_ip_key: ipKey(line.client_ip),
});

const streamRow = (nodeId: number, line: StreamLogLine) => ({
  node_id: nodeId,
  stream_id: line.stream_id,
  time_ms: Math.round(line.time * 1000),
  client_ip: line.client_ip,
  protocol: line.protocol,
  status: line.status,
  bytes_sent: line.bytes_sent,
  bytes_received: line.bytes_received,
  session_time_ms: Math.round(line.session_time * 1000),
  upstream: line.upstream,
  client_ip_key: ipKey(line.client_ip),
});

/** The batch's (node, seq) row: false when it is already there (the batch was stored before). */
async function claimBatch(trx: Kysely<LogDatabase>, nodeId: number, batch: LogBatchBody): Promise<boolean> {
  const claimed = await trx
    .insertInto('log_batches')
    .values({
      node_id: nodeId,
      seq: batch.seq,
      lines: batch.access.length + batch.stream.length,
      received_at: Date.now(),
    })
    .onConflict((oc) => oc.columns(['node_id', 'seq']).doNothing())
    .returning('seq')
    .executeTakeFirst();
  return claimed !== undefined;
}

/**
 * Stores a batch exactly once: the (node, seq) row, the lines and their traffic rollups commit
 * together, so a batch the agent sends again after a lost acknowledgement is recognised and not
 * stored (nor counted) twice.
 */
export async function ingestLogBatch(
  logs: Kysely<LogDatabase>,
  dialect: Dialect,
  nodeId: number,
  batch: LogBatchBody,
  events?: EventStore,
): Promise<boolean> {
  if (events?.kind === 'clickhouse') return ingestIntoClickHouse(logs, events.clickhouse, nodeId, batch);
  await ensureDayPartitions(
    logs,
    dialect,
    'access_logs',
    'ms',
    batch.access.map((line) => Math.round(line.time * 1000)),
  );
  await ensureDayPartitions(
    logs,
    dialect,
    'stream_logs',
    'ms',
    batch.stream.map((line) => Math.round(line.time * 1000)),
  );
  return logs.transaction().execute(async (trx) => {
    if (!(await claimBatch(trx, nodeId, batch))) return false;
    for (let i = 0; i < batch.access.length; i += CHUNK) {
      await trx
        .insertInto('access_logs')
        .values(batch.access.slice(i, i + CHUNK).map((line) => accessRow(nodeId, line)))
        .execute();
    }
    await addTrafficRollups(trx, batch.access);
    await addUsageSamples(trx, batch.access);
    for (let i = 0; i < batch.stream.length; i += CHUNK) {
      await trx
        .insertInto('stream_logs')
        .values(batch.stream.slice(i, i + CHUNK).map((line) => streamRow(nodeId, line)))
        .execute();
    }
    await addStreamRollups(trx, batch.stream);
    return true;
  });
}

/** The first of `count` new line ids of a kind (the counter row is locked until the transaction ends). */
async function takeIds(trx: Kysely<LogDatabase>, kind: 'access' | 'stream', count: number): Promise<number> {
  if (count === 0) return 0;
  const row = await trx
    .updateTable('log_id_counters')
    .set((eb) => ({ next_id: eb('next_id', '+', count) }))
    .where('kind', '=', kind)
    .returning('next_id')
    .executeTakeFirstOrThrow();
  return Number(row.next_id) - count;
}

/**
 * The same batch into ClickHouse: the (node, seq) claim and the line ids are taken in the logs
 * database's transaction, the lines inserted before it commits, and ClickHouse's materialized views
 * add them to the rollups. A failed insert rolls the claim back, so the agent's retry stores the
 * batch; only a commit lost after a successful insert could store a batch twice.
 */
async function ingestIntoClickHouse(
  logs: Kysely<LogDatabase>,
  clickhouse: ClickHouseStore,
  nodeId: number,
  batch: LogBatchBody,
): Promise<boolean> {
  return logs.transaction().execute(async (trx) => {
    if (!(await claimBatch(trx, nodeId, batch))) return false;
    const firstAccess = await takeIds(trx, 'access', batch.access.length);
    const firstStream = await takeIds(trx, 'stream', batch.stream.length);
    await Promise.all([
      clickhouse.insert(
        'access_logs',
        batch.access.map((line, i) => ({ id: firstAccess + i, ...accessRow(nodeId, line) })),
      ),
      clickhouse.insert(
        'stream_logs',
        batch.stream.map((line, i) => ({ id: firstStream + i, ...streamRow(nodeId, line) })),
      ),
    ]);
    return true;
  });
}

/** Node metrics by time (a repeat is ignored); site minutes keep the latest totals per node. */
export async function ingestMetrics(
  logs: Kysely<LogDatabase>,
  dialect: Dialect,
  nodeId: number,
  report: NodeMetricsBody,
) {
  const { sites, time, nginx_up, ...node } = report;
  await ensureDayPartitions(logs, dialect, 'node_metrics', 's', [time]);
  await ensureDayPartitions(
    logs,
    dialect,
    'site_minutes',
    's',
    sites.map((site) => site.minute),
  );
  await logs.transaction().execute(async (trx) => {
    const stored = await trx
      .insertInto('node_metrics')
      .values({ node_id: nodeId, time, ...node, nginx_up: nginx_up === undefined ? null : Number(nginx_up) })
      .onConflict((oc) => oc.columns(['node_id', 'time']).doNothing())
      .returning('time')
      .executeTakeFirst();
    // A repeated report is neither stored nor counted again.
    if (stored) await addNodeRollups(trx, nodeId, report);
    for (let i = 0; i < sites.length; i += CHUNK) {
      await trx
        .insertInto('site_minutes')
        .values(sites.slice(i, i + CHUNK).map((site) => ({ ...site, node_id: nodeId })))
        .onConflict((oc) =>
          oc.columns(['site_id', 'minute', 'node_id']).doUpdateSet((eb) => ({
            requests: eb.ref('excluded.requests'),
            bytes_in: eb.ref('excluded.bytes_in'),
            bytes_out: eb.ref('excluded.bytes_out'),
            status_2xx: eb.ref('excluded.status_2xx'),
            status_3xx: eb.ref('excluded.status_3xx'),
            status_4xx: eb.ref('excluded.status_4xx'),
            status_5xx: eb.ref('excluded.status_5xx'),
            cache_hits: eb.ref('excluded.cache_hits'),
          })),
        )
        .execute();
    }
  });
}
