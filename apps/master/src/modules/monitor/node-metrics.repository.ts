import { type Kysely, sql } from 'kysely';
import type { EventDatabase, LogDatabase } from '../../db/logs-schema.ts';
import type { NodeRollupTable } from './node-rollup.repository.ts';

export interface NodeBucket {
  bucket: number;
  reports: number;
  bytes_in: number;
  bytes_out: number;
  requests: number;
  connections: number | null;
  cpu_percent: number | null;
  memory_used_bytes: number | null;
  memory_total_bytes: number | null;
  disk_used_bytes: number | null;
  disk_total_bytes: number | null;
  load1: number | null;
  load5: number | null;
  load15: number | null;
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

// Each node's mean over its reports in the interval; memory, disk and connections are then summed
// over the nodes, CPU and load averaged over them. Disk and load5/15 count only the reports that
// carry them (extended_reports), so older agents leave them null rather than zero.
const perNode = (column: string, reports: 'reports' | 'extended_reports') =>
  sql`case when ${sql.ref(reports)} > 0 then ${sql.ref(column)} * 1.0 / ${sql.ref(reports)} end`;

/**
 * Node metrics per interval of one rollup for buckets in [from, to) (seconds): one node, or every
 * node summed, read through the (node_id, bucket) key or the bucket index.
 */
export async function readNodeMetrics(
  logs: Kysely<LogDatabase>,
  nodeId: number | undefined,
  table: NodeRollupTable,
  from: number,
  to: number,
): Promise<NodeBucket[]> {
  const rows = await logs
    .selectFrom(table)
    .where('bucket', '>=', from)
    .where('bucket', '<', to)
    .$if(nodeId !== undefined, (qb) => qb.where('node_id', '=', nodeId ?? 0))
    .select([
      'bucket',
      sql<string | number>`sum(reports)`.as('reports'),
      sql<string | number>`sum(bytes_in)`.as('bytes_in'),
      sql<string | number>`sum(bytes_out)`.as('bytes_out'),
      sql<string | number>`sum(requests)`.as('requests'),
      sql<string | number | null>`sum(${perNode('connections_sum', 'reports')})`.as('connections'),
      sql<string | number | null>`avg(${perNode('cpu_sum', 'reports')})`.as('cpu_percent'),
      sql<string | number | null>`sum(${perNode('memory_used_sum', 'reports')})`.as('memory_used_bytes'),
      sql<string | number | null>`sum(${perNode('memory_total_sum', 'reports')})`.as('memory_total_bytes'),
      sql<string | number | null>`sum(${perNode('disk_used_sum', 'extended_reports')})`.as('disk_used_bytes'),
      sql<string | number | null>`sum(${perNode('disk_total_sum', 'extended_reports')})`.as('disk_total_bytes'),
      sql<string | number | null>`avg(${perNode('load1_sum', 'reports')})`.as('load1'),
      sql<string | number | null>`avg(${perNode('load5_sum', 'extended_reports')})`.as('load5'),
      sql<string | number | null>`avg(${perNode('load15_sum', 'extended_reports')})`.as('load15'),
    ])
    .groupBy('bucket')
    .orderBy('bucket')
    .execute();
  return rows.map((row) => ({
    bucket: Number(row.bucket),
    reports: Number(row.reports),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
    requests: Number(row.requests),
    connections: num(row.connections),
    cpu_percent: num(row.cpu_percent),
    memory_used_bytes: num(row.memory_used_bytes),
    memory_total_bytes: num(row.memory_total_bytes),
    disk_used_bytes: num(row.disk_used_bytes),
    disk_total_bytes: num(row.disk_total_bytes),
    load1: num(row.load1),
    load5: num(row.load5),
    load15: num(row.load15),
  }));
}

export interface LatestReport {
  time: number;
  cpu_percent: number;
  memory_used_bytes: number;
  memory_total_bytes: number;
  disk_used_bytes: number | null;
  disk_total_bytes: number | null;
  load1: number;
  load5: number | null;
  load15: number | null;
  connections: number;
  nginx_up: boolean | null;
}

/** A node's newest report (through the (node_id, time) key), and the sums of its reports since `since`. */
export async function latestReport(
  logs: Kysely<LogDatabase>,
  nodeId: number,
  since: number,
): Promise<{ latest: LatestReport | undefined; recent: { bytes_in: number; bytes_out: number; requests: number } }> {
  const [latest, recent] = await Promise.all([
    logs
      .selectFrom('node_metrics')
      .select([
        'time',
        'cpu_percent',
        'memory_used_bytes',
        'memory_total_bytes',
        'disk_used_bytes',
        'disk_total_bytes',
        'load1',
        'load5',
        'load15',
        'connections',
        'nginx_up',
      ])
      .where('node_id', '=', nodeId)
      .orderBy('time', 'desc')
      .limit(1)
      .executeTakeFirst(),
    logs
      .selectFrom('node_metrics')
      .select([
        sql<string | number | null>`sum(bytes_in)`.as('bytes_in'),
        sql<string | number | null>`sum(bytes_out)`.as('bytes_out'),
        sql<string | number | null>`sum(coalesce(requests, 0))`.as('requests'),
      ])
      .where('node_id', '=', nodeId)
      .where('time', '>', since)
      .executeTakeFirst(),
  ]);
  return {
    latest: latest && {
      time: Number(latest.time),
      cpu_percent: Number(latest.cpu_percent),
      memory_used_bytes: Number(latest.memory_used_bytes),
      memory_total_bytes: Number(latest.memory_total_bytes),
      disk_used_bytes: num(latest.disk_used_bytes),
      disk_total_bytes: num(latest.disk_total_bytes),
      load1: Number(latest.load1),
      load5: num(latest.load5),
      load15: num(latest.load15),
      connections: Number(latest.connections),
      nginx_up: latest.nginx_up === null ? null : Number(latest.nginx_up) === 1,
    },
    recent: {
      bytes_in: Number(recent?.bytes_in ?? 0),
      bytes_out: Number(recent?.bytes_out ?? 0),
      requests: Number(recent?.requests ?? 0),
    },
  };
}

/** Sites by bytes sent on a node (or every node), from the agents' per-site minutes in [from, to) seconds. */
export async function nodeTopSites(
  logs: Kysely<LogDatabase>,
  nodeId: number | undefined,
  from: number,
  to: number,
  limit: number,
) {
  const rows = await logs
    .selectFrom('site_minutes')
    .where('minute', '>=', from)
    .where('minute', '<', to)
    .$if(nodeId !== undefined, (qb) => qb.where('node_id', '=', nodeId ?? 0))
    .select([
      'site_id',
      sql<string | number>`sum(requests)`.as('requests'),
      sql<string | number>`sum(bytes_in)`.as('bytes_in'),
      sql<string | number>`sum(bytes_out)`.as('bytes_out'),
    ])
    .groupBy('site_id')
    .orderBy(sql`sum(bytes_out) + sum(bytes_in)`, 'desc')
    .orderBy('site_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    site_id: Number(row.site_id),
    requests: Number(row.requests),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
  }));
}

export interface IpLogFilter {
  nodeId?: number | undefined;
  fromMs: number;
  toMs: number;
  ipKeys?: { first: string; last: string } | undefined;
}

/**
 * Client addresses a node (or every node) saw in the range, HTTP requests and stream connections
 * together, most first. Both logs are read through their (node_id, time_ms) or (time_ms) index.
 */
export async function nodeIpLog(logs: Kysely<EventDatabase>, filter: IpLogFilter, limit: number) {
  const { nodeId, ipKeys } = filter;
  const http = logs
    .selectFrom('access_logs')
    .where('time_ms', '>=', filter.fromMs)
    .where('time_ms', '<', filter.toMs)
    .$if(nodeId !== undefined, (qb) => qb.where('node_id', '=', nodeId ?? 0))
    .$if(ipKeys !== undefined, (qb) =>
      qb.where('client_ip_key', '>=', ipKeys?.first ?? '').where('client_ip_key', '<=', ipKeys?.last ?? ''),
    )
    .select([
      'node_id',
      'client_ip',
      sql<number>`count(*)`.as('r'),
      sql<number>`0`.as('c'),
      sql<number>`sum(bytes_received)`.as('b_in'),
      sql<number>`sum(bytes_sent)`.as('b_out'),
      sql<number>`min(time_ms)`.as('first'),
      sql<number>`max(time_ms)`.as('last'),
    ])
    .groupBy(['node_id', 'client_ip']);
  const tcp = logs
    .selectFrom('stream_logs')
    .where('time_ms', '>=', filter.fromMs)
    .where('time_ms', '<', filter.toMs)
    .$if(nodeId !== undefined, (qb) => qb.where('node_id', '=', nodeId ?? 0))
    .$if(ipKeys !== undefined, (qb) =>
      qb.where('client_ip_key', '>=', ipKeys?.first ?? '').where('client_ip_key', '<=', ipKeys?.last ?? ''),
    )
    .select([
      'node_id',
      'client_ip',
      sql<number>`0`.as('r'),
      sql<number>`count(*)`.as('c'),
      sql<number>`sum(bytes_received)`.as('b_in'),
      sql<number>`sum(bytes_sent)`.as('b_out'),
      sql<number>`min(time_ms)`.as('first'),
      sql<number>`max(time_ms)`.as('last'),
    ])
    .groupBy(['node_id', 'client_ip']);
  const rows = await logs
    .selectFrom(http.unionAll(tcp).as('seen'))
    .select([
      'seen.node_id',
      'seen.client_ip',
      sql<string | number>`sum(r)`.as('requests'),
      sql<string | number>`sum(c)`.as('connections'),
      sql<string | number>`sum(b_in)`.as('bytes_in'),
      sql<string | number>`sum(b_out)`.as('bytes_out'),
      sql<string | number>`min(first)`.as('first_ms'),
      sql<string | number>`max(last)`.as('last_ms'),
    ])
    .groupBy(['seen.node_id', 'seen.client_ip'])
    // The inner names differ from the outer ones: ClickHouse reads an outer alias inside an expression.
    .orderBy(sql`sum(r) + sum(c)`, 'desc')
    .orderBy('seen.node_id')
    .orderBy('seen.client_ip')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    node_id: Number(row.node_id),
    client_ip: row.client_ip,
    requests: Number(row.requests),
    connections: Number(row.connections),
    bytes_in: Number(row.bytes_in),
    bytes_out: Number(row.bytes_out),
    first_seen: new Date(Number(row.first_ms)).toISOString(),
    last_seen: new Date(Number(row.last_ms)).toISOString(),
  }));
}
