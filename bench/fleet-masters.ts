// Several masters on one PostgreSQL (issue 30): three masters from source on a fresh database and
// 3,000 simulated agents spread evenly over them, each holding a config long poll and sending a
// metrics report every 5 s, as bench/fleet.ts does for one master on SQLite. Each agent knows the
// three masters, its own first (each master is first for a third of the fleet), and calls through
// the agent's own MasterClient: a call that gets no answer (connection error, 502/503/504) goes on
// to the next master at once. Measured:
//  1. a site change through one master's API (each change through the next master): the time until
//     every agent, whichever master it polls, has the new snapshot and acknowledged it (p50, p95,
//     max; target p95 at most 2 s). The other masters' polls wake through LISTEN/NOTIFY.
//  2. one master killed (SIGKILL), then a change through a surviving one: the time from the kill
//     until each of the killed master's agents has acknowledged that change from another master
//     (p50, p95, max; target p95 at most 5 s).
//  3. each master's CPU and resident memory at rest with the fleet connected (from /proc; masters
//     pinned to core 0 and the fleet to core 1 where taskset exists, as in fleet.ts, unless
//     BENCH_PIN=0), the CPU of the PostgreSQL backends serving the bench's database, and the fleet's.
// Baseline in the same run: as many parallel GET /v1/common/sysinfo to one master.
// Usage: node bench/fleet-masters.ts  (BENCH_AGENTS, default 3000; BENCH_CHANGES, default 10;
// BENCH_REST_S, the seconds at rest, default 20; BENCH_JOIN_S, the seconds over which the agents
// first connect, default 10 ms an agent; BENCH_PIN=0 leaves every process free to use both cores;
// BENCH_PG_URL, the server to create the database on, default postgres://postgres@127.0.0.1:5432)

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { MasterClient } from '../apps/agent/src/sync/master-client.ts';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { insertBenchNode } from './nodes.ts';
import {
  adminCall,
  processUsage,
  runFleetOnCore1,
  type SimulatedAgent,
  signIn,
  startFleet,
} from './simulated-agents.ts';
import { freePort, median, percentile, ROOT, start, switchDomainProofOff, tempDir, waitFor200 } from './support.ts';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 3000);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 10);
const REST_SECONDS = Number(process.env.BENCH_REST_S ?? 20);
const JOIN_SECONDS = Number(process.env.BENCH_JOIN_S ?? Math.max(5, AGENTS / 100));
const SERVER = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '');
const MASTERS = 3;
const PASSWORD = 'bench-Admin-Pass-1';
const KILLED = MASTERS - 1;
const PINNED = process.env.BENCH_PIN !== '0';

if (PINNED) runFleetOnCore1();
/** A master from source: on core 0 (support.ts's start) unless BENCH_PIN=0 lets it use both cores. */
const startMaster = (env: Record<string, string>) => {
  const args = [join(ROOT, 'apps/master/src/server.ts')];
  if (PINNED) return start(process.execPath, args, env);
  return spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
};

const admin = new pg.Client({ connectionString: `${SERVER}/postgres` });
await admin.connect();
const databaseName = `rampart_bench_${process.pid}_${Date.now()}`;
await admin.query(`create database "${databaseName}"`);
const databaseUrl = `${SERVER}/${databaseName}`;
const secretKey = randomBytes(32).toString('base64');
const dataDirs: string[] = [];
const masters: ChildProcess[] = [];
const bases: string[] = [];
let database: ReturnType<typeof openDatabase> | undefined;
let fleet: ReturnType<typeof startFleet> | undefined;

let cleaning: Promise<void> | undefined;
/** Ends the masters (the figures are taken: nothing to finish), drops the database and the data directories. */
const cleanUp = () => {
  cleaning ??= (async () => {
    fleet?.stop();
    for (const master of masters) master.kill('SIGKILL');
    await database?.close();
    await admin.query(`drop database if exists "${databaseName}" with (force)`);
    await admin.end();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  })();
  return cleaning;
};
// Interrupted, the run still cleans up; whatever ends this process, the masters end with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
}
process.once('exit', () => {
  for (const master of masters) master.kill('SIGKILL');
});

/** CPU seconds of the PostgreSQL backends serving the bench's database, by process. */
const postgresCpu = async () => {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
    databaseName,
  ]);
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, processUsage(pid).cpu);
    } catch {
      // the backend ended since
    }
  }
  return cpu;
};
const cpuBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, cpu]) => sum + cpu - (before.get(pid) ?? 0), 0);

const cpuSeconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1e6;
/** p50, p95 and max in whole milliseconds. */
const summary = (values: number[]) => ({
  p50: Math.round(percentile(values, 0.5)),
  p95: Math.round(percentile(values, 0.95)),
  max: Math.round(Math.max(...values)),
});
const ms = (value: number) => String(Math.round(value));
const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
const benchStarted = performance.now();
/** Where the run is, on stderr (a fleet too large for the machine shows here first). */
const progress = (text: string) =>
  console.error(`${((performance.now() - benchStarted) / 1000).toFixed(1).padStart(6)} s  ${text}`);

try {
  // One after the other: the first migrates the empty database.
  for (let i = 0; i < MASTERS; i++) {
    const dataDir = tempDir(`rampart-fleet-masters-${i}-`);
    dataDirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    masters.push(
      startMaster({
        RAMPART_PORT: String(port),
        RAMPART_DATA_DIR: dataDir,
        RAMPART_DATABASE_URL: databaseUrl,
        RAMPART_SECRET_KEY: secretKey,
        RAMPART_ADMIN_PASSWORD: PASSWORD,
        RAMPART_LOG_LEVEL: 'warn',
      }),
    );
    bases.push(base);
    await waitFor200(`${base}/v1/common/sysinfo`, performance.now());
    progress(`master ${i + 1} answers at ${base}`);
  }
  const usage = () => masters.map((master) => processUsage(master.pid ?? 0));

  // Nodes are written straight into the shared database.
  const bench = openDatabase({ dataDir: dataDirs[0] ?? '', url: databaseUrl });
  database = bench;
  const credentials: string[] = [];
  for (let i = 0; i < AGENTS; i++) credentials.push(await insertBenchNode(bench.db, `sim-${i}`));
  progress(`${AGENTS} nodes inserted`);
  const current = async () =>
    (await bench.db.selectFrom('config_state').select('version').executeTakeFirstOrThrow()).version;

  // One session for every master: they share the sessions table.
  const token = await signIn(bases[0] ?? '', PASSWORD);
  await switchDomainProofOff(bases[0] ?? '', token); // the fleet's snapshots hold the site
  const origin = { address: '127.0.0.1', port: 9000, weight: 1, backup: false };
  const site = await adminCall(bases[0] ?? '', token, 'POST', '/v1/sites', {
    domains: ['fleet.example.com'],
    origins: [origin],
  });
  let edits = 0;
  const changeSite = (through: number) =>
    adminCall(bases[through] ?? '', token, 'PUT', `/v1/sites/${site.id}`, {
      origins: [{ ...origin, port: 9000 + (edits++ % 100) + 1 }],
    });

  // Agent i polls master i % 3 first, then the ones after it.
  const home = (agent: number) => agent % MASTERS;
  const movedAt = new Map<number, number>(); // agent → when it first went on from the master it used
  const agents: SimulatedAgent[] = credentials.map((credential, i) => {
    const order = bases.map((_, at) => bases[(home(i) + at) % MASTERS] ?? '');
    const moved = () => void (movedAt.has(i) || movedAt.set(i, performance.now()));
    const client = new MasterClient(order, { log: { info() {}, warn: moved, error() {} } });
    return { credential, call: (request) => client.call(request, null) };
  });
  const connectStarted = performance.now();
  // Agents join over BENCH_JOIN_S (default 10 ms an agent, at least 5 s), as a fleet coming up
  // would: each new agent takes a whole snapshot and reports its status, and 3,000 at once overflow
  // the masters' listen queues (a dropped SYN is retried only after a second or more).
  const first = await current();
  fleet = startFleet(agents, { connectOverMs: JOIN_SECONDS * 1000 });
  const connected = fleet.acknowledged(first);
  // The fleet's own event loop is watched too: a fleet too large for its core is late to read answers.
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  let sample = { at: performance.now(), masters: usage(), fleet: process.cpuUsage() };
  const counting = setInterval(() => {
    const now = { at: performance.now(), masters: usage(), fleet: process.cpuUsage() };
    const seconds = (now.at - sample.at) / 1000;
    const busy = now.masters.map((master, i) => percent((master.cpu - (sample.masters[i]?.cpu ?? 0)) / seconds));
    progress(
      `${fleet?.acknowledgedBy(first)} agents on the current snapshot, ${movedAt.size} went on to another master; masters ${busy.join(', ')} of a core, the fleet ${percent(cpuSeconds(process.cpuUsage(sample.fleet)) / seconds)}, its event loop up to ${ms(delay.max / 1e6)} ms late`,
    );
    sample = now;
    delay.reset();
  }, 10_000);
  await connected.finally(() => {
    clearInterval(counting);
    delay.disable();
  });
  const connectMs = performance.now() - connectStarted;
  progress(`fleet connected in ${ms(connectMs)} ms; at rest for ${REST_SECONDS} s`);

  // 3. At rest: the fleet connected, long polls held, metrics every 5 s.
  const restStart = usage();
  const restPostgres = await postgresCpu();
  const restSent = fleet.metricsSent;
  const restFleet = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, REST_SECONDS * 1000));
  const restEnd = usage();
  const restFleetCpu = cpuSeconds(process.cpuUsage(restFleet)) / REST_SECONDS;
  const restPostgresCpu = cpuBetween(restPostgres, await postgresCpu()) / REST_SECONDS;
  const restReports = fleet.metricsSent - restSent;
  const restCpu = restEnd.map((end, i) => (end.cpu - (restStart[i]?.cpu ?? 0)) / REST_SECONDS);

  // 1. Changes, each through the next master, until every agent has acknowledged the new version.
  const propagation: number[] = [];
  const changeStart = usage();
  const halfOfThem = credentials.map((_, i) => i).filter((i) => i % 2 === 0);
  const fleetCpuStart = process.cpuUsage();
  for (let i = 0; i < CHANGES; i++) {
    const started = performance.now();
    await changeSite(i % MASTERS);
    const answered = performance.now() - started;
    // The newest version is the change's (nothing else writes): wait until every agent reports it.
    const version = await current();
    const half = fleet.acknowledged(version, halfOfThem).then(() => performance.now() - started);
    await fleet.acknowledged(version);
    propagation.push(performance.now() - started);
    progress(
      `change ${i + 1} through master ${(i % MASTERS) + 1}: the API answered in ${ms(answered)} ms, half the agents acknowledged in ${ms(await half)} ms, all in ${ms(propagation.at(-1) ?? 0)} ms`,
    );
  }
  const changeEnd = usage();
  const fleetCpu = process.cpuUsage(fleetCpuStart);
  const changeCpu = changeEnd.map((end, i) => end.cpu - (changeStart[i]?.cpu ?? 0));

  // A kept-alive socket the master closes as it is reused fails the call: it counts, the round goes on.
  const baseline: number[] = [];
  let baselineFailed = 0;
  const sysinfo = () =>
    fetch(`${bases[0]}/v1/common/sysinfo`).then(
      (response) => response.arrayBuffer(),
      () => baselineFailed++,
    );
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await Promise.all(credentials.map(sysinfo));
    baseline.push(performance.now() - started);
  }

  // 2. Kill one master, then change the site through a surviving one at once.
  const orphans = credentials.map((_, i) => i).filter((i) => home(i) === KILLED);
  const acksAfterKill = new Map<number, { version: number; at: number }[]>();
  fleet.onAck((agent, version) => {
    if (home(agent) !== KILLED) return;
    const acks = acksAfterKill.get(agent) ?? [];
    acks.push({ version, at: performance.now() });
    acksAfterKill.set(agent, acks);
  });
  // Agents move on from a master that answers too slowly too (MasterClient gives a call 5 s to begin).
  const movedBeforeKill = movedAt.size;
  movedAt.clear();
  const killed = masters[KILLED] as ChildProcess;
  const exited = new Promise((resolve) => killed.once('exit', resolve));
  progress(`killing master ${KILLED + 1}`);
  const killedAt = performance.now();
  killed.kill('SIGKILL');
  await exited;
  const through = (KILLED + 1) % MASTERS;
  await changeSite(through);
  const failoverVersion = await current();
  await fleet.acknowledged(failoverVersion, orphans);
  await fleet.acknowledged(failoverVersion);
  const everyAgentMs = performance.now() - killedAt;
  const failover = orphans.map(
    (agent) => (acksAfterKill.get(agent)?.find((ack) => ack.version >= failoverVersion)?.at ?? Number.NaN) - killedAt,
  );
  // An agent that had moved before (a master too slow to answer) is not on the killed master.
  const moved = orphans.flatMap((agent) => {
    const at = movedAt.get(agent);
    return at === undefined ? [] : [at - killedAt];
  });
  const survivorsMoved = [...movedAt.keys()].filter((agent) => home(agent) !== KILLED).length;

  const changes = summary(propagation);
  const failed = summary(failover);
  const baselineMs = median(baseline);
  console.log(
    `date: ${new Date().toISOString()}  node ${process.version}  ${MASTERS} masters on PostgreSQL, ${AGENTS} simulated agents (${AGENTS / MASTERS} a master), ${CHANGES} changes`,
  );
  console.log(`fleet connected and on the current snapshot in ${ms(connectMs)} ms`);
  console.log(
    `at rest (${REST_SECONDS} s, ${restReports} metrics reports, ${(restReports / REST_SECONDS).toFixed(0)}/s): ${restCpu.map((cpu, i) => `master ${i + 1} CPU ${(cpu * 100).toFixed(1)}% of a core, RSS ${restEnd[i]?.rssMb.toFixed(0)} MB`).join('; ')}; PostgreSQL backends ${(restPostgresCpu * 100).toFixed(1)}% of a core; the fleet ${(restFleetCpu * 100).toFixed(1)}%; metrics refused or failed: ${fleet.metricsFailed}`,
  );
  console.log(
    `change → all ${AGENTS} agents on ${MASTERS} masters acknowledged: p50 ${ms(changes.p50)} ms, p95 ${ms(changes.p95)} ms, max ${ms(changes.max)} ms (target p95 at most 2000 ms); masters' CPU ${changeCpu.map((cpu) => cpu.toFixed(1)).join(' + ')} s and the fleet's ${cpuSeconds(fleetCpu).toFixed(1)} s for ${CHANGES} changes; agents that went on to another master while all three ran: ${movedBeforeKill}`,
  );
  console.log(
    `master killed → its ${orphans.length} agents acknowledged a change from another master: p50 ${ms(failed.p50)} ms, p95 ${ms(failed.p95)} ms, max ${ms(failed.max)} ms (target p95 at most 5000 ms); ${moved.length} of them went on to the next master after p50 ${ms(percentile(moved, 0.5))} ms, max ${ms(Math.max(...moved))} ms; the other masters' agents that moved: ${survivorsMoved}; every agent acknowledged ${ms(everyAgentMs)} ms after the kill`,
  );
  console.log(
    `baseline, ${AGENTS} parallel GET /v1/common/sysinfo to one master: median ${ms(baselineMs)} ms (change p95 / baseline: ${(changes.p95 / baselineMs).toFixed(1)}×); failed calls: ${baselineFailed}`,
  );
  console.log(
    JSON.stringify({
      bench: 'fleet-masters',
      date: new Date().toISOString(),
      masters: MASTERS,
      agents: AGENTS,
      changes: CHANGES,
      change_ms: changes,
      failover_ms: failed,
      rest: restCpu.map((cpu, i) => ({
        master: i + 1,
        cpu_percent: Number((cpu * 100).toFixed(1)),
        rss_mb: Number(restEnd[i]?.rssMb.toFixed(0)),
      })),
      rest_postgres_cpu_percent: Number((restPostgresCpu * 100).toFixed(1)),
      rest_fleet_cpu_percent: Number((restFleetCpu * 100).toFixed(1)),
      metrics_failed: fleet.metricsFailed,
      moved_while_all_ran: movedBeforeKill,
      baseline_median_ms: Number(baselineMs.toFixed(0)),
    }),
  );
} finally {
  await cleanUp();
}
process.exit(0);
