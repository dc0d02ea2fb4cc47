// Fleet scale (issue 12): 1,000 simulated agents on one master, each holding a config long poll and
// sending a metrics report every 5 s, as the agent does. Measured: the master's CPU and memory at
// rest with the fleet connected (from /proc, the master being a process of its own pinned to core 0
// where taskset exists; the fleet runs in this process), and the time from a site change until every
// agent has the new snapshot and acknowledged it with a status report (p50, p95, max; target p95 at
// most 2 s). Baseline in the same run: as many parallel GET /v1/common/sysinfo.
// Usage: node bench/fleet.ts  (BENCH_AGENTS, default 1000; BENCH_CHANGES, default 20;
// BENCH_REST_S, the seconds at rest, default 30).

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigAnswer, NodeMetricsBody } from '@rampart/contracts';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { insertBenchNode } from './nodes.ts';
import { freePort, median, ROOT, start, stop, tempDir, waitFor200 } from './support.ts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 20);
const REST_SECONDS = Number(process.env.BENCH_REST_S ?? 30);
const METRICS_EVERY_MS = 5000;
const PASSWORD = 'bench-Admin-Pass-1';
const TICKS = 100; // clock ticks per second in /proc/PID/stat
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

// The fleet runs on the other core, so that it does not take the master's.
try {
  execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  // no taskset: the fleet and the master share the cores
}

const dataDir = tempDir('rampart-fleet-');
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const master = start(process.execPath, [join(ROOT, 'apps/master/src/server.ts')], {
  RAMPART_PORT: String(port),
  RAMPART_DATA_DIR: dataDir,
  RAMPART_ADMIN_PASSWORD: PASSWORD,
  RAMPART_LOG_LEVEL: 'warn',
});
await waitFor200(`${base}/v1/common/sysinfo`, performance.now());

/** The master's CPU seconds so far and its resident memory in MB. */
const masterUsage = () => {
  const stat = readFileSync(`/proc/${master.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${master.pid}/status`, 'utf8'))?.[1];
  return { cpu: (Number(stat[11]) + Number(stat[12])) / TICKS, rssMb: Number(rss ?? 0) / 1024 };
};

// Nodes are written straight into the master's database (WAL: a second connection may write).
const database = openDatabase({ dataDir });
const credentials: string[] = [];
for (let i = 0; i < AGENTS; i++) credentials.push(await insertBenchNode(database.db, `sim-${i}`));

// Node's fetch keeps no limit of connections per origin: one each for a long poll and a report.
const call = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, init);

const login = (await (
  await call('/v1/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: PASSWORD }),
  })
).json()) as { data: { access_token: string } };
const api = async (method: string, path: string, body: unknown) => {
  const response = await call(path, {
    method,
    headers: { 'access-token': login.data.access_token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { code: number; msg: string; data: { id: number } };
  if (answer.code !== 0) throw new Error(`${method} ${path}: ${answer.msg}`);
  return answer.data;
};
const origin = { address: '127.0.0.1', port: 9000, weight: 1, backup: false };
const site = await api('POST', '/v1/sites', { domains: ['fleet.example.com'], origins: [origin] });

const acked = new Map<number, number>(); // version → agents that acknowledged it
const waiters: { version: number; resolve: () => void }[] = [];
let running = true;
let metricsSent = 0;
let metricsFailed = 0;

const metrics = (): NodeMetricsBody => ({
  time: Math.floor(Date.now() / 1000),
  cpu_percent: 12.5,
  memory_used_bytes: 2_000_000_000,
  memory_total_bytes: 8_000_000_000,
  load1: 0.5,
  load5: 0.4,
  load15: 0.3,
  connections: 40,
  bytes_in: 1_000_000,
  bytes_out: 20_000_000,
  requests: 3000,
  nginx_up: true,
  sites: [],
});

async function configLoop(credential: string) {
  let version = 0;
  while (running) {
    const response = await call(`/agent/v1/config?version=${version}&wait=30`, {
      headers: { 'node-token': credential, 'accept-encoding': 'gzip' },
    }).catch(() => undefined);
    if (!response) {
      if (running) await new Promise((resolve) => setTimeout(resolve, 500));
      continue;
    }
    const answer = ((await response.json()) as { data: ConfigAnswer }).data;
    if (!answer.changed) continue;
    version = answer.version;
    const status = await call('/agent/v1/status', {
      method: 'POST',
      headers: { 'node-token': credential, 'content-type': 'application/json' },
      body: JSON.stringify({ applied_version: version, apply_errors: [], last_error: '', dropped_log_lines: 0 }),
    });
    await status.arrayBuffer();
    acked.set(version, (acked.get(version) ?? 0) + 1);
    for (const waiter of waiters.filter((entry) => (acked.get(entry.version) ?? 0) >= AGENTS)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}

async function metricsLoop(credential: string, offsetMs: number) {
  await new Promise((resolve) => setTimeout(resolve, offsetMs));
  while (running) {
    const started = Date.now();
    const response = await call('/agent/v1/metrics', {
      method: 'POST',
      headers: { 'node-token': credential, 'content-type': 'application/json' },
      body: JSON.stringify(metrics()),
    }).catch(() => undefined);
    if (response?.ok) metricsSent++;
    else {
      metricsFailed++;
      if (metricsFailed === 1) console.error(`first refused report: ${response?.status} ${await response?.text()}`);
    }
    await response?.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, METRICS_EVERY_MS - (Date.now() - started))));
  }
}

// Connect the fleet, spread over the first second as agents starting would be, then wait until
// every agent holds the current snapshot.
const loops = credentials.flatMap((credential, i) => [
  configLoop(credential),
  metricsLoop(credential, (i / AGENTS) * METRICS_EVERY_MS),
]);
const current = async () =>
  (await database.db.selectFrom('config_state').select('version').executeTakeFirstOrThrow()).version;
const allAcked = (version: number) =>
  new Promise<void>((resolve) => {
    if ((acked.get(version) ?? 0) >= AGENTS) resolve();
    else waiters.push({ version, resolve });
  });
await allAcked(await current());

// At rest: the fleet connected, long polls held, metrics every 5 s.
const restStart = masterUsage();
const restSent = metricsSent;
await new Promise((resolve) => setTimeout(resolve, REST_SECONDS * 1000));
const restEnd = masterUsage();
const restReports = metricsSent - restSent;

// Changes: a site edit until every agent has acknowledged the new version.
const propagation: number[] = [];
const changeStart = masterUsage();
for (let i = 0; i < CHANGES; i++) {
  const started = performance.now();
  await api('PUT', `/v1/sites/${site.id}`, { origins: [{ ...origin, port: 9000 + (i % 100) + 1 }] });
  // The newest version is the change's (nothing else writes): wait until some agent reports it.
  const version = await current();
  await allAcked(version);
  propagation.push(performance.now() - started);
}
const changeEnd = masterUsage();

const baseline: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  await Promise.all(credentials.map(() => call('/v1/common/sysinfo').then((response) => response.arrayBuffer())));
  baseline.push(performance.now() - started);
}

running = false;
await database.close();
await stop(master);
await Promise.race([Promise.allSettled(loops), new Promise((resolve) => setTimeout(resolve, 2000))]);

const restCpu = (restEnd.cpu - restStart.cpu) / REST_SECONDS;
console.log(
  `date: ${new Date().toISOString()}  node ${process.version}  ${AGENTS} simulated agents, ${CHANGES} changes`,
);
console.log(
  `at rest (${REST_SECONDS} s, ${restReports} metrics reports, ${(restReports / REST_SECONDS).toFixed(0)}/s): master CPU ${(restCpu * 100).toFixed(1)}% of a core, RSS ${restEnd.rssMb.toFixed(0)} MB; metrics refused or failed: ${metricsFailed}`,
);
console.log(
  `change → all ${AGENTS} agents acknowledged: p50 ${percentile(propagation, 0.5).toFixed(0)} ms, p95 ${percentile(propagation, 0.95).toFixed(0)} ms, max ${Math.max(...propagation).toFixed(0)} ms (target p95 at most 2000 ms); master CPU ${(changeEnd.cpu - changeStart.cpu).toFixed(1)} s for ${CHANGES} changes, RSS ${changeEnd.rssMb.toFixed(0)} MB`,
);
console.log(
  `baseline, ${AGENTS} parallel GET /v1/common/sysinfo: median ${median(baseline).toFixed(0)} ms (change p95 / baseline: ${(percentile(propagation, 0.95) / median(baseline)).toFixed(1)}×)`,
);
process.exit(0);
