import type { Kysely } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Database } from '../../db/schema.ts';
import { currentConfigVersion, waitingForConfigChange } from '../config/config-version.ts';
import { OFFLINE_AFTER_MS } from '../nodes/nodes.repository.ts';
import { RequestDurations } from './request-durations.ts';

/** Seconds: from a quick cached read to a long poll that answers at its timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

let processRegistry: Registry | undefined;

/** The process's own figures (CPU, memory, event loop, handles): one set a process, however many masters it runs. */
function processMetrics() {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface MasterMetrics {
  /** One answered call: the route pattern (not the URL), its method, status and seconds taken. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** A log batch stored (or recognised as sent before) with its access and stream lines. */
  countLogBatch(access: number, stream: number): void;
  countMetricsReport(): void;
  /** The exposition text: the app's figures, those read from the database now, and the process's. */
  render(): Promise<{ contentType: string; text: string }>;
}

/** The master's figures, in a registry of its own (each app, such as each test's, counts apart). */
export function createMasterMetrics(db: Kysely<Database>): MasterMetrics {
  const registry = new Registry();
  const requests = new RequestDurations({
    name: 'rampart_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status code.',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const ingestLines = new Counter({
    name: 'rampart_ingest_lines_total',
    help: 'Log lines received from agents, by kind (access, stream).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const ingestBatches = new Counter({
    name: 'rampart_ingest_batches_total',
    help: 'Log batches received from agents.',
    registers: [registry],
  });
  const metricsReports = new Counter({
    name: 'rampart_ingest_metric_reports_total',
    help: 'Metric reports (per-minute site and node figures) received from agents.',
    registers: [registry],
  });
  for (const kind of ['access', 'stream']) ingestLines.inc({ kind }, 0);

  new Gauge({
    name: 'rampart_agents_connected',
    help: 'Agents holding a configuration long poll open now.',
    registers: [registry],
    collect() {
      this.set(waitingForConfigChange());
    },
  });
  new Gauge({
    name: 'rampart_config_version',
    help: 'The configuration version the master serves.',
    registers: [registry],
    async collect() {
      this.set(await currentConfigVersion(db));
    },
  });
  new Gauge({
    name: 'rampart_nodes',
    help: `Enabled nodes, by state: online (seen in the last ${OFFLINE_AFTER_MS / 1000} s) or offline.`,
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const since = Date.now() - OFFLINE_AFTER_MS;
      const rows = await db.selectFrom('nodes').select(['last_seen_at']).where('enabled', '=', 1).execute();
      const online = rows.filter((row) => row.last_seen_at !== null && Number(row.last_seen_at) >= since).length;
      this.set({ state: 'online' }, online);
      this.set({ state: 'offline' }, rows.length - online);
    },
  });
  new Gauge({
    name: 'rampart_node_config_version',
    help: 'The configuration version each node has applied.',
    labelNames: ['node_id', 'node'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await db.selectFrom('nodes').select(['id', 'name', 'applied_version']).orderBy('id').execute();
      for (const row of rows) this.set({ node_id: String(row.id), node: row.name }, Number(row.applied_version));
    },
  });
  new Gauge({
    name: 'rampart_node_dropped_log_lines',
    help: 'Log lines each node dropped because its spool was full (as it last reported).',
    labelNames: ['node_id', 'node'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await db.selectFrom('nodes').select(['id', 'name', 'dropped_log_lines']).orderBy('id').execute();
      for (const row of rows) this.set({ node_id: String(row.id), node: row.name }, Number(row.dropped_log_lines));
    },
  });
  new Gauge({
    name: 'rampart_queue_depth',
    help: 'Work waiting: tasks queued or running, purge and preheat jobs not yet done by a node.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const tasks = await db
        .selectFrom('tasks')
        .select(['state', (eb) => eb.fn.countAll().as('n')])
        .where('state', 'in', ['queued', 'running'])
        .groupBy('state')
        .execute();
      const count = (state: string) => Number(tasks.find((row) => row.state === state)?.n ?? 0);
      this.set({ queue: 'tasks', state: 'queued' }, count('queued'));
      this.set({ queue: 'tasks', state: 'running' }, count('running'));
      const jobs = await db
        .selectFrom('job_nodes')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('state', '=', 'pending')
        .executeTakeFirstOrThrow();
      this.set({ queue: 'jobs', state: 'pending' }, Number(jobs.n));
    },
  });

  return {
    observeRequest(route, method, status, seconds) {
      requests.observe(route, method, status, seconds);
    },
    countLogBatch(access, stream) {
      ingestBatches.inc();
      ingestLines.inc({ kind: 'access' }, access);
      ingestLines.inc({ kind: 'stream' }, stream);
    },
    countMetricsReport() {
      metricsReports.inc();
    },
    async render() {
      const own = await registry.metrics();
      const process = await processMetrics().metrics();
      return { contentType: registry.contentType, text: `${own}\n${process}` };
    },
  };
}
