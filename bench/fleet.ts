// Fleet scale (issue 12): 1,000 simulated agents on one master, each holding a config long poll and
// sending a metrics report every 5 s, as the agent does. Measured: the master's CPU and memory at
// rest with the fleet connected (from /proc, the master being a process of its own pinned to core 0
// where taskset exists; the fleet runs in this process), and the time from a site change until every
// agent has the new snapshot and acknowledged it with a status report (p50, p95, max; target p95 at
// most 2 s). Baseline in the same run: as many parallel GET /v1/common/sysinfo.
// Usage: node bench/fleet.ts  (BENCH_AGENTS, default 1000; BENCH_CHANGES, default 20;
// BENCH_REST_S, the seconds at rest, default 30).

import { join } from 'node:path';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { insertBenchNode } from './nodes.ts';
import { adminCall, callMaster, processUsage, runFleetOnCore1, signIn, startFleet } from './simulated-agents.ts';
import { freePort, median, ROOT, start, stop, switchDomainProofOff, tempDir, waitFor200 } from './support.ts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 20);
const REST_SECONDS = Number(process.env.BENCH_REST_S ?? 30);
const PASSWORD = 'bench-Admin-Pass-1';
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

runFleetOnCore1();

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
const masterUsage = () => processUsage(master.pid ?? 0);

// Nodes are written straight into the master's database (WAL: a second connection may write).
const database = openDatabase({ dataDir });
const credentials: string[] = [];
for (let i = 0; i < AGENTS; i++) credentials.push(await insertBenchNode(database.db, `sim-${i}`));

const token = await signIn(base, PASSWORD);
await switchDomainProofOff(base, token); // the fleet's snapshots hold the site
const api = (method: string, path: string, body: unknown) => adminCall(base, token, method, path, body);
const origin = { address: '127.0.0.1', port: 9000, weight: 1, backup: false };
const site = await api('POST', '/v1/sites', { domains: ['fleet.example.com'], origins: [origin] });

// Connect the fleet, then wait until every agent holds the current snapshot.
const fleet = startFleet(credentials.map((credential) => ({ credential, call: callMaster(base) })));
const current = async () =>
  (await database.db.selectFrom('config_state').select('version').executeTakeFirstOrThrow()).version;
await fleet.acknowledged(await current());

// At rest: the fleet connected, long polls held, metrics every 5 s.
const restStart = masterUsage();
const restSent = fleet.metricsSent;
await new Promise((resolve) => setTimeout(resolve, REST_SECONDS * 1000));
const restEnd = masterUsage();
const restReports = fleet.metricsSent - restSent;

// Changes: a site edit until every agent has acknowledged the new version.
const propagation: number[] = [];
const changeStart = masterUsage();
const fleetStart = process.cpuUsage();
for (let i = 0; i < CHANGES; i++) {
  const started = performance.now();
  await api('PUT', `/v1/sites/${site.id}`, { origins: [{ ...origin, port: 9000 + (i % 100) + 1 }] });
  // The newest version is the change's (nothing else writes): wait until some agent reports it.
  const version = await current();
  await fleet.acknowledged(version);
  propagation.push(performance.now() - started);
}
const changeEnd = masterUsage();
// The simulated agents share this process (one core where taskset exists); real ones have a machine
// each. Its CPU beside the changes' wall time says whether the fleet's side held them up.
const fleetCpu = process.cpuUsage(fleetStart);
const fleetSeconds = (fleetCpu.user + fleetCpu.system) / 1e6;
const changeSeconds = propagation.reduce((sum, ms) => sum + ms, 0) / 1000;

const baseline: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  await Promise.all(
    credentials.map(() => fetch(`${base}/v1/common/sysinfo`).then((response) => response.arrayBuffer())),
  );
  baseline.push(performance.now() - started);
}

fleet.stop();
await database.close();
await stop(master);
await fleet.settled(2000);

const restCpu = (restEnd.cpu - restStart.cpu) / REST_SECONDS;
console.log(
  `date: ${new Date().toISOString()}  node ${process.version}  ${AGENTS} simulated agents, ${CHANGES} changes`,
);
console.log(
  `at rest (${REST_SECONDS} s, ${restReports} metrics reports, ${(restReports / REST_SECONDS).toFixed(0)}/s): master CPU ${(restCpu * 100).toFixed(1)}% of a core, RSS ${restEnd.rssMb.toFixed(0)} MB; metrics refused or failed: ${fleet.metricsFailed}`,
);
console.log(
  `change → all ${AGENTS} agents acknowledged: p50 ${percentile(propagation, 0.5).toFixed(0)} ms, p95 ${percentile(propagation, 0.95).toFixed(0)} ms, max ${Math.max(...propagation).toFixed(0)} ms (target p95 at most 2000 ms); master CPU ${(changeEnd.cpu - changeStart.cpu).toFixed(1)} s for ${CHANGES} changes, RSS ${changeEnd.rssMb.toFixed(0)} MB`,
);
console.log(
  `the simulated fleet's own process: CPU ${fleetSeconds.toFixed(1)} s for the ${CHANGES} changes, ${((fleetSeconds / changeSeconds) * 100).toFixed(0)}% of their ${changeSeconds.toFixed(1)} s (100%: a core busy throughout)`,
);
console.log(
  `baseline, ${AGENTS} parallel GET /v1/common/sysinfo: median ${median(baseline).toFixed(0)} ms (change p95 / baseline: ${(percentile(propagation, 0.95) / median(baseline)).toFixed(1)}×)`,
);
process.exit(0);
