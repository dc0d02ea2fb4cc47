import {
  MONITOR_LIMITS,
  type NodeIpLog,
  type NodeIpLogQuery,
  type NodeMonitor,
  type NodeMonitorList,
  type NodeRealtime,
  type NodeRealtimeQuery,
  type NodeTop,
  type NodeTopQuery,
} from '@rampart/contracts';
import { cidrKeyRange } from '../../db/ip-key.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { OFFLINE_AFTER_MS } from '../nodes/nodes.repository.ts';
import { loadSettings } from '../settings/settings.service.ts';
import type { MonitorStores } from './monitor.service.ts';
import { latestReport, type NodeBucket, nodeIpLog, nodeTopSites, readNodeMetrics } from './node-metrics.repository.ts';
import { NODE_ROLLUPS } from './node-rollup.repository.ts';
import { DAY_MS, timeRange } from './time-range.ts';
import { retainedRollup } from './traffic-retention.ts';

/** The finest rollup whose intervals over the range number at most MONITOR_LIMITS.maxPoints. */
export const nodeRollupFor = async (db: MonitorStores['db'], range: { fromMs: number; toMs: number; now: number }) =>
  retainedRollup(NODE_ROLLUPS, range, await loadSettings(db), MONITOR_LIMITS.maxPoints);

/** A node the admin names must exist: otherwise a 404 naming the field (never an empty chart of nothing). */
async function checkNode(stores: MonitorStores, nodeId: number | undefined) {
  if (nodeId === undefined) return;
  const node = await stores.db.selectFrom('nodes').select('id').where('id', '=', nodeId).executeTakeFirst();
  if (!node) throw new AppError('not_found', `node_id: node ${nodeId} does not exist`);
}

const EMPTY = (bucket: number): NodeBucket => ({
  bucket,
  reports: 0,
  bytes_in: 0,
  bytes_out: 0,
  requests: 0,
  connections: null,
  cpu_percent: null,
  memory_used_bytes: null,
  memory_total_bytes: null,
  disk_used_bytes: null,
  disk_total_bytes: null,
  load1: null,
  load5: null,
  load15: null,
});

export async function nodeRealtime(
  stores: MonitorStores,
  query: NodeRealtimeQuery,
  now: number,
): Promise<NodeRealtime> {
  const { fromMs, toMs } = timeRange(query.from, query.to, { maxSpanMs: MONITOR_LIMITS.realtimeMaxDays * DAY_MS, now });
  await checkNode(stores, query.node_id);
  const { table, seconds } = await nodeRollupFor(stores.db, { fromMs, toMs, now });
  const first = Math.floor(fromMs / 1000 / seconds) * seconds;
  const end = Math.ceil(toMs / 1000 / seconds) * seconds;
  const rows = await readNodeMetrics(stores.logs, query.node_id, table, first, end);
  const byBucket = new Map(rows.map((row) => [row.bucket, row]));
  const totals = { bytes_in: 0, bytes_out: 0, requests: 0 };
  const points: NodeRealtime['points'] = [];
  for (let bucket = first; bucket < end; bucket += seconds) {
    const { bucket: _, ...point } = byBucket.get(bucket) ?? EMPTY(bucket);
    totals.bytes_in += point.bytes_in;
    totals.bytes_out += point.bytes_out;
    totals.requests += point.requests;
    points.push({ time: new Date(bucket * 1000).toISOString(), ...point });
  }
  return { interval: seconds, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), points, totals };
}

const rawRange = (query: { from?: string; to?: string }, now: number) =>
  timeRange(query.from, query.to, {
    maxSpanMs: MONITOR_LIMITS.rawLogDays * DAY_MS,
    maxAgeMs: MONITOR_LIMITS.rawLogDays * DAY_MS,
    now,
  });

export async function nodeTop(stores: MonitorStores, query: NodeTopQuery, now: number): Promise<NodeTop> {
  const { fromMs, toMs } = rawRange(query, now);
  await checkNode(stores, query.node_id);
  // Whole minutes: a minute counts when it starts inside the range.
  const from = Math.ceil(fromMs / 60_000) * 60;
  const to = Math.ceil(toMs / 60_000) * 60;
  const rows = await nodeTopSites(stores.logs, query.node_id, from, to, query.limit ?? 10);
  const ids = rows.map((row) => row.site_id).filter((id) => id > 0);
  const sites =
    ids.length === 0
      ? []
      : await stores.db.selectFrom('sites').select(['id', 'primary_domain']).where('id', 'in', ids).execute();
  const names = new Map(sites.map((site) => [site.id, site.primary_domain]));
  return { list: rows.map((row) => ({ ...row, site_name: names.get(row.site_id) ?? '' })) };
}

export async function nodeIpLogOf(stores: MonitorStores, query: NodeIpLogQuery, now: number): Promise<NodeIpLog> {
  const range = rawRange(query, now);
  let ipKeys: { first: string; last: string } | undefined;
  if (query.ip !== undefined) {
    ipKeys = cidrKeyRange(query.ip) ?? undefined;
    if (!ipKeys) throw invalidParam('ip', `${query.ip} is not an IP address or CIDR range`);
  }
  await checkNode(stores, query.node_id);
  return { list: await nodeIpLog(stores.events.db, { ...range, nodeId: query.node_id, ipKeys }, query.limit ?? 50) };
}

const stateOf = (node: { enabled: number; last_seen_at: number | null }, now: number): NodeMonitor['state'] => {
  if (node.enabled !== 1) return 'disabled';
  if (node.last_seen_at === null) return 'never';
  return now - node.last_seen_at < OFFLINE_AFTER_MS ? 'online' : 'offline';
};

/** Every node with its state, its newest report and the traffic of its last 60 seconds of reports. */
export async function monitorNodes(stores: MonitorStores, now: number): Promise<NodeMonitorList> {
  const [nodes, version] = await Promise.all([
    stores.db
      .selectFrom('nodes')
      .select(['id', 'name', 'ips', 'enabled', 'last_seen_at', 'agent_version', 'applied_version', 'last_error'])
      .orderBy('id')
      .execute(),
    currentConfigVersion(stores.db),
  ]);
  const since = Math.floor(now / 1000) - 60;
  const list: NodeMonitor[] = [];
  for (const node of nodes) {
    const { latest, recent } = await latestReport(stores.logs, node.id, since);
    list.push({
      id: node.id,
      name: node.name,
      ips: JSON.parse(node.ips) as string[],
      state: stateOf(node, now),
      last_seen_at: node.last_seen_at === null ? null : new Date(Number(node.last_seen_at)).toISOString(),
      agent_version: node.agent_version,
      applied_version: node.applied_version,
      config_current: node.applied_version >= version,
      nginx_ok: node.last_error === '',
      nginx_running: latest?.nginx_up ?? null,
      last_error: node.last_error,
      reported_at: latest ? new Date(latest.time * 1000).toISOString() : null,
      cpu_percent: latest?.cpu_percent ?? null,
      memory_used_bytes: latest?.memory_used_bytes ?? null,
      memory_total_bytes: latest?.memory_total_bytes ?? null,
      disk_used_bytes: latest?.disk_used_bytes ?? null,
      disk_total_bytes: latest?.disk_total_bytes ?? null,
      load1: latest?.load1 ?? null,
      load5: latest?.load5 ?? null,
      load15: latest?.load15 ?? null,
      connections: latest?.connections ?? null,
      last_minute: recent,
    });
  }
  return { list, total: list.length, config_version: version };
}
