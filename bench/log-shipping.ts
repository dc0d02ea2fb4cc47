// Log shipping end to end: lines/s from nginx's access log to stored, queryable rows, against a
// raw bulk insert of as many rows into a fresh store of the same kind. The SQLite logs file, and
// ClickHouse (RAMPART_LOGS_URL, a private instance started here).
// Two ways to time it (BENCH_SHIPPING):
// - steady (the default, the headline): the agent runs as in production, warm and idle; its process
//   is stopped (SIGSTOP) while nginx writes the lines, then let go on (SIGCONT) and timed until every
//   line is stored. Rounds alternate with the raw insert; medians, and CPU from /proc a line.
// - restart: the agent is stopped (SIGTERM) while nginx writes, then started as a new process and
//   timed until every line is stored, so its start (module loading) counts as shipping. Also
//   reported: the time to its first stored batch and the shipping alone (first stored batch to last).
// - both: steady, then restart.
// Usage: node bench/log-shipping.ts   (BENCH_STORES=sqlite or clickhouse; BENCH_LOAD_SECONDS=3;
//        BENCH_ROUNDS=3 (steady); BENCH_SHIPPING=steady|restart|both;
//        BENCH_CPU_PROF=dir writes --cpu-prof profiles of the master and the agent there)
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Site } from '@rampart/contracts';
import { Nginx } from '../apps/agent/src/apply/nginx.ts';
import { agentPaths } from '../apps/agent/src/paths.ts';
import { agentCommandLine } from '../apps/agent/test/support/agent.ts';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import { acceptFirstPendingNode, adminToken, api, MasterProcess } from '../apps/agent/test/support/master-process.ts';
import { freePort } from '../apps/agent/test/support/ports.ts';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { openEventStore } from '../apps/master/src/db/events.ts';
import { migrateToLatest } from '../apps/master/src/db/migrate.ts';
import { launchClickHouse } from '../apps/master/src/test/clickhouse-server.ts';
import { cpuSeconds } from './nginx-cpu.ts';
import { NGINX, startPlainNginx } from './nginx-process.ts';
import { median, pause, ROOT, tempDir, wrk } from './support.ts';

export type LogStoreKind = 'sqlite' | 'clickhouse';

export interface ShippingFigures {
  lines: number;
  /** Lines/s from the agent's start to the last row stored (the headline). */
  endToEnd: number;
  /** Milliseconds from the agent's start to its first batch stored. */
  startMs: number;
  /** Lines/s from the first batch stored to the last (the shipping alone). */
  shippingOnly: number;
  raw: number;
  /** The raw insert with 5000 rows an insert (ClickHouse) or a transaction (SQLite). */
  rawLarge: number;
  /** CPU milliseconds (user + system, from /proc) the agent used from its start, and the master meanwhile. */
  cpu: { agent: number; agentStart: number; master: number; store: number };
  /** CPU milliseconds of the raw insert: this process (the client) and the ClickHouse server. */
  rawCpu: { client: number; store: number };
  /** The same for the raw insert 5000 rows at a time (absent where not measured). */
  rawLargeCpu?: { client: number; store: number };
}

/** User + system CPU milliseconds a process used so far. */
const cpuMs = (pid: number): number => Math.round(cpuSeconds([pid]) * 1000);

/** The process whose command line has `argument` (a private server's port). */
function processWith(argument: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(argument)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no process with ${argument}`);
}

/** The master process serving `dataDir` (MasterProcess keeps its child to itself). */
export function masterPid(dataDir: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!command.includes('apps/master/src/server.ts')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`RAMPART_DATA_DIR=${dataDir}`)) {
        return Number(entry);
      }
    } catch {
      // gone meanwhile
    }
  }
  throw new Error('master process not found');
}

/** Counts stored access rows: the logs database, or ClickHouse when the master writes there. */
type RowCounter = () => Promise<number>;

/**
 * With an agent already serving `host` on `httpPort`: stops it, loads nginx for `loadSeconds`,
 * starts it again and times the shipping of every line written meanwhile.
 */
export async function measureShipping(options: {
  httpPort: number;
  host: string;
  stopAgent: () => Promise<void>;
  /** Starts the agent; returns its pid. */
  startAgent: () => number;
  stored: RowCounter;
  loadSeconds: number;
  masterPid: number;
  /** The ClickHouse server, when the logs go there. */
  storePid?: number;
}): Promise<Omit<ShippingFigures, 'raw' | 'rawLarge' | 'rawCpu'>> {
  await pause(2500);
  await options.stopAgent();
  const before = await options.stored();
  const load = wrk(`http://127.0.0.1:${options.httpPort}/`, {
    seconds: options.loadSeconds,
    connections: 32,
    lua: `wrk.headers["Host"] = "${options.host}"`,
  });
  await pause(1500); // nginx flushes its log buffer every second
  const target = before + load.requests;
  const masterBefore = cpuMs(options.masterPid);
  const storeBefore = options.storePid ? cpuMs(options.storePid) : 0;
  const started = performance.now();
  const agent = options.startAgent();
  let first = 0;
  let agentStart = 0;
  for (;;) {
    const now = await options.stored().catch(() => before);
    if (first === 0 && now > before) {
      first = performance.now();
      agentStart = cpuMs(agent);
    }
    if (now >= target) break;
    if (performance.now() - started > 180_000) throw new Error(`timed out at ${now - before}/${load.requests} rows`);
    await pause(20);
  }
  const done = performance.now();
  const cpu = {
    agent: cpuMs(agent),
    agentStart,
    master: cpuMs(options.masterPid) - masterBefore,
    store: options.storePid ? cpuMs(options.storePid) - storeBefore : 0,
  };
  const firstBatch = Math.min(first, done);
  return {
    lines: load.requests,
    endToEnd: load.requests / ((done - started) / 1000),
    startMs: firstBatch - started,
    // The first stored batch is already in when timing starts: the rest over the time they took.
    shippingOnly: done > firstBatch ? load.requests / ((done - firstBatch) / 1000) : Number.NaN,
    cpu,
  };
}

/** One steady-state round: lines, time and CPU from the agent's resumption to the last row stored. */
export interface SteadyRound {
  lines: number;
  /** Lines/s from the agent's resumption to the last row stored. */
  rate: number;
  /** CPU milliseconds meanwhile: the agent, the master and the ClickHouse server. */
  cpu: { agent: number; master: number; store: number };
  /** The 1-minute load average at the start of the round. */
  load: number;
}

export const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** Waits until the stored row count has not moved for `quietMs` (the agent has shipped all it had). */
async function settled(stored: RowCounter, quietMs: number): Promise<number> {
  const deadline = performance.now() + 120_000;
  let count = await stored();
  let since = performance.now();
  while (performance.now() - since < quietMs) {
    if (performance.now() > deadline) throw new Error('the stored row count never settled');
    await pause(100);
    const now = await stored();
    if (now !== count) [count, since] = [now, performance.now()];
  }
  return count;
}

/**
 * With a running agent (warm, idle) serving `host` on `httpPort`: stops its process (SIGSTOP) while
 * nginx is loaded for `loadSeconds`, lets it go on (SIGCONT) and times until every line written
 * meanwhile is a stored row. The agent does what it does in production, without a process start.
 */
export async function measureSteadyShipping(options: {
  httpPort: number;
  host: string;
  agentPid: number;
  stored: RowCounter;
  loadSeconds: number;
  masterPid: number;
  storePid?: number;
}): Promise<SteadyRound> {
  const load = loadAverage();
  // Idle: every line of earlier requests stored, no batch open (a batch closes 1 s after its first line).
  const before = await settled(options.stored, 2000);
  process.kill(options.agentPid, 'SIGSTOP');
  let wrote: ReturnType<typeof wrk>;
  try {
    wrote = wrk(`http://127.0.0.1:${options.httpPort}/`, {
      seconds: options.loadSeconds,
      connections: 32,
      lua: `wrk.headers["Host"] = "${options.host}"`,
    });
    await pause(1500); // nginx flushes its log buffer every second
  } catch (error) {
    process.kill(options.agentPid, 'SIGCONT');
    throw error;
  }
  const target = before + wrote.requests;
  const agentBefore = cpuMs(options.agentPid);
  const masterBefore = cpuMs(options.masterPid);
  const storeBefore = options.storePid ? cpuMs(options.storePid) : 0;
  const started = performance.now();
  process.kill(options.agentPid, 'SIGCONT');
  for (;;) {
    const now = await options.stored();
    if (now >= target) break;
    if (performance.now() - started > 180_000) throw new Error(`timed out at ${now - before}/${wrote.requests} rows`);
    await pause(20);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    lines: wrote.requests,
    rate: wrote.requests / seconds,
    cpu: {
      agent: cpuMs(options.agentPid) - agentBefore,
      master: cpuMs(options.masterPid) - masterBefore,
      store: options.storePid ? cpuMs(options.storePid) - storeBefore : 0,
    },
    load,
  };
}

const rawRow = () => ({
  node_id: 1,
  site_id: 1,
  time_ms: Date.now(),
  client_ip: '127.0.0.1',
  method: 'GET',
  host: 'loop.bench.test',
  uri: '/',
  status: 200,
  bytes_sent: 160,
  bytes_received: 80,
  request_time_ms: 0,
  upstream_time_ms: 0,
  cache_status: '',
  user_agent: '',
  referer: '',
  block_reason: '',
});

/** A raw insert: rows/s, and the CPU milliseconds of the inserting (this process, and the ClickHouse server). */
export interface RawInsert {
  rate: number;
  cpu: { client: number; store: number };
}

const ownCpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/**
 * A plain bulk insert of `count` access-log rows into a fresh SQLite logs database: Kysely, 500-row
 * statements, `rowsPerTransaction` rows a transaction. Time and CPU cover the inserts only.
 */
export async function rawSqliteInsert(count: number, rowsPerTransaction = 1000): Promise<RawInsert> {
  const database = openDatabase({ dataDir: tempDir('rampart-bench-raw-') });
  await migrateToLatest(database);
  const batch = Array.from({ length: 500 }, rawRow);
  const cpuBefore = ownCpuMs();
  const started = performance.now();
  for (let done = 0; done < count; done += rowsPerTransaction) {
    await database.logs.transaction().execute(async (trx) => {
      for (let rows = 0; rows < rowsPerTransaction; rows += 500)
        await trx.insertInto('access_logs').values(batch).execute();
    });
  }
  const rate = (Math.ceil(count / rowsPerTransaction) * rowsPerTransaction) / ((performance.now() - started) / 1000);
  const client = Math.round(ownCpuMs() - cpuBefore);
  await database.close();
  return { rate, cpu: { client, store: 0 } };
}

/**
 * A plain bulk insert of `count` access-log rows into a fresh ClickHouse database: one JSONEachRow
 * insert of `rowsPerInsert` rows at a time, materialized views included (as the store writes).
 */
export async function rawClickHouseInsert(
  httpUrl: string,
  count: number,
  rowsPerInsert = 1000,
  serverPid?: number,
): Promise<RawInsert> {
  const database = openDatabase({ dataDir: tempDir('rampart-bench-raw-') });
  await migrateToLatest(database);
  const events = await openEventStore(`${httpUrl}/raw_${Date.now()}`, database.logs);
  if (events.kind !== 'clickhouse') throw new Error('not ClickHouse');
  const row = rawRow();
  const [cpuBefore, serverBefore] = [ownCpuMs(), serverPid ? cpuMs(serverPid) : 0];
  const started = performance.now();
  for (let done = 0; done < count; done += rowsPerInsert) {
    await events.clickhouse.insert(
      'access_logs',
      Array.from({ length: rowsPerInsert }, (_, i) => ({ id: done + i + 1, ...row, client_ip_key: null })),
    );
  }
  const rate = (Math.ceil(count / rowsPerInsert) * rowsPerInsert) / ((performance.now() - started) / 1000);
  const cpu = {
    client: Math.round(ownCpuMs() - cpuBefore),
    store: serverPid ? cpuMs(serverPid) - serverBefore : 0,
  };
  await events.close();
  await database.close();
  return { rate, cpu };
}

/** The real master (SQLite logs, or ClickHouse), the agent as a process and its nginx, one site. */
async function benchStore(
  kind: LogStoreKind,
  origin: number,
  options: { loadSeconds: number; rounds: number; variants: ShippingVariant[] },
): Promise<string[]> {
  const clickhouse = kind === 'clickhouse' ? await launchClickHouse() : undefined;
  const profileDir = process.env.BENCH_CPU_PROF;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, kind)}`] : [];
  // MasterProcess passes this process's env on: the store and the profiler for the master only.
  const saved = { logs: process.env.RAMPART_LOGS_URL, options: process.env.NODE_OPTIONS };
  if (clickhouse) process.env.RAMPART_LOGS_URL = `${clickhouse.httpUrl}/bench`;
  if (profile.length > 0) process.env.NODE_OPTIONS = [saved.options ?? '', ...profile].join(' ').trim();
  const master = new MasterProcess(await freePort(), tempDir('rampart-bench-master-'));
  try {
    await master.start();
  } finally {
    process.env.NODE_OPTIONS = saved.options;
    if (saved.options === undefined) delete process.env.NODE_OPTIONS;
    if (saved.logs === undefined) delete process.env.RAMPART_LOGS_URL;
    else process.env.RAMPART_LOGS_URL = saved.logs;
  }
  const admin = await adminToken(master);
  const ports = { http: await freePort(), https: await freePort() };
  const agentDir = tempDir('rampart-bench-agent-');
  const { install_token } = await api<{ install_token: string }>(master, 'GET', '/v1/nodes/install-token', admin);
  const args = [
    ...profile,
    join(ROOT, 'apps/agent/src/main.ts'),
    ...agentCommandLine({ master: master.url, token: install_token, dataDir: agentDir, controlPort: await freePort() }),
  ];
  const spawnAgent = () =>
    spawn(process.execPath, args, { stdio: ['ignore', 'ignore', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore'] });
  let agent: ChildProcess = spawnAgent();
  const stopAgent = async () => {
    if (agent.exitCode !== null || agent.signalCode !== null) return;
    const exited = new Promise((done) => agent.once('exit', done));
    agent.kill('SIGTERM');
    await exited;
  };
  const database = openDatabase({ dataDir: master.dataDir });
  const chPid = clickhouse ? processWith(`--http_port=${new URL(clickhouse.httpUrl).port}`) : undefined;
  const events = clickhouse ? await openEventStore(`${clickhouse.httpUrl}/bench`, database.logs) : undefined;
  const stored: RowCounter = async () => {
    if (events?.kind === 'clickhouse') {
      const result = await events.clickhouse.client.query({ query: 'SELECT count() AS n FROM access_logs' });
      const rows = (await result.json<{ n: string }>()).data;
      return Number(rows[0]?.n ?? 0);
    }
    // The ids of a fresh logs database count up from 1 without gaps (one writer, no deletes), so the
    // highest is the row count: an index lookup, where count(*) walks an index of every row (2.4 ms
    // at 250,000 rows, polled every 20 ms on the same two cores as the agent and the master).
    const row = await database.logs
      .selectFrom('access_logs')
      .select((eb) => eb.fn.max('id').as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n ?? 0);
  };
  /** The exact count, checked after each round (outside the timing). */
  const counted: RowCounter = async () => {
    if (events?.kind === 'clickhouse') return stored();
    const row = await database.logs
      .selectFrom('access_logs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  try {
    await acceptFirstPendingNode(master, admin, { http_port: ports.http, https_port: ports.https });
    await api<Site>(master, 'POST', '/v1/sites', admin, {
      domains: ['loop.bench.test'],
      origins: [{ address: '127.0.0.1', port: origin, weight: 1, backup: false }],
    });
    const deadline = performance.now() + 30_000;
    while ((await edgeRequest(ports.http, { host: 'loop.bench.test' }).catch(() => null))?.status !== 200) {
      if (performance.now() > deadline) throw new Error('the edge did not serve the site');
      await pause(50);
    }
    const masterId = masterPid(master.dataDir);
    const rawInsert = (count: number, rowsAtATime: number) =>
      clickhouse
        ? rawClickHouseInsert(clickhouse.httpUrl, count, rowsAtATime, chPid)
        : rawSqliteInsert(count, rowsAtATime);
    const lines: string[] = [];
    for (const variant of options.variants) {
      if (variant === 'steady') {
        const steady = {
          httpPort: ports.http,
          host: 'loop.bench.test',
          agentPid: agent.pid ?? 0,
          stored,
          masterPid: masterId,
          ...(chPid && { storePid: chPid }),
        };
        // A first, shorter round warms the agent and the master up (a long-running agent is warm).
        await measureSteadyShipping({ ...steady, loadSeconds: 1 });
        await rawInsert(20_000, 1000);
        const rounds: SteadyFigures['rounds'] = [];
        for (let round = 0; round < options.rounds; round++) {
          const shipped = await measureSteadyShipping({ ...steady, loadSeconds: options.loadSeconds });
          const [highest, rows] = [await stored(), await counted()];
          if (rows !== highest) throw new Error(`${rows} rows stored, ${highest} by their ids`);
          const raw = await rawInsert(shipped.lines, 1000);
          // The agent ships up to 5000 lines a batch: the same raw insert with that many rows at a time.
          const rawLarge = await rawInsert(shipped.lines, 5000);
          rounds.push({ ...shipped, raw, rawLarge });
        }
        lines.push(steadyLine(kind, { rounds }), ...rounds.map((round) => steadyRoundLine(kind, round)));
      } else {
        const figures = await measureShipping({
          httpPort: ports.http,
          host: 'loop.bench.test',
          stopAgent,
          startAgent: () => {
            agent = spawnAgent();
            return agent.pid ?? 0;
          },
          stored,
          loadSeconds: options.loadSeconds,
          masterPid: masterId,
          ...(chPid && { storePid: chPid }),
        });
        const [highest, rows] = [await stored(), await counted()];
        if (rows !== highest) throw new Error(`${rows} rows stored, ${highest} by their ids`);
        const raw = await rawInsert(figures.lines, 1000);
        const rawLarge = await rawInsert(figures.lines, 5000);
        lines.push(
          shippingLine(kind, {
            ...figures,
            raw: raw.rate,
            rawLarge: rawLarge.rate,
            rawCpu: raw.cpu,
            rawLargeCpu: rawLarge.cpu,
          }),
        );
      }
    }
    return lines;
  } finally {
    await events?.close();
    await database.close();
    await stopAgent().catch(() => undefined);
    const paths = agentPaths(agentDir);
    await new Nginx({ binary: NGINX, prefix: paths.nginxDir, errorLog: paths.errorLog, pidFile: paths.pidFile }).stop(
      2000,
    );
    await master.stop();
    await clickhouse?.close();
  }
}

/** How a bench run times the shipping (see the top of this file). */
export type ShippingVariant = 'steady' | 'restart';

/** Steady-state rounds, each with its raw inserts of as many rows (1000 and 5000 rows at a time). */
export interface SteadyFigures {
  rounds: (SteadyRound & { raw: RawInsert; rawLarge: RawInsert })[];
}

const cpuOf = (cpu: { agent: number; master: number; store: number }) => cpu.agent + cpu.master + cpu.store;
const rawCpuOf = (raw: RawInsert) => raw.cpu.client + raw.cpu.store;
const usPer = (ms: number, count: number) => ((ms * 1000) / count).toFixed(1);

export const steadyRoundLine = (store: string, r: SteadyFigures['rounds'][number]) =>
  `  round (${store}, load average ${r.load.toFixed(2)}): ${r.lines} lines at ${r.rate.toFixed(0)} lines/s, ` +
  `raw ${r.raw.rate.toFixed(0)} (5000 a time ${r.rawLarge.rate.toFixed(0)}): ratio ${(r.rate / r.raw.rate).toFixed(2)}; ` +
  `CPU agent ${usPer(r.cpu.agent, r.lines)} + master ${usPer(r.cpu.master, r.lines)}` +
  (r.cpu.store > 0 ? ` + ClickHouse ${usPer(r.cpu.store, r.lines)}` : '') +
  ` us/line, raw ${usPer(rawCpuOf(r.raw), r.lines)} us/row: CPU ratio ${(rawCpuOf(r.raw) / cpuOf(r.cpu)).toFixed(2)}`;

/** The headline: medians over the rounds (each ratio is taken within its round, then the median). */
export function steadyLine(store: string, f: SteadyFigures): string {
  const m = (pick: (r: SteadyFigures['rounds'][number]) => number) => median(f.rounds.map(pick));
  const lines = m((r) => r.lines);
  const loads = f.rounds.map((r) => r.load.toFixed(2)).join(', ');
  return (
    `log shipping (${store}): ${lines} lines from the nginx log to stored rows at ${m((r) => r.rate).toFixed(0)} lines/s ` +
    `(steady state: the agent running and warm, its process stopped while nginx wrote the lines; median of ${f.rounds.length} rounds, load average ${loads}); ` +
    `raw bulk insert ${m((r) => r.raw.rate).toFixed(0)} lines/s; ratio ${m((r) => r.rate / r.raw.rate).toFixed(2)}; ` +
    `raw at 5000 rows a time ${m((r) => r.rawLarge.rate).toFixed(0)} lines/s: ratio ${m((r) => r.rate / r.rawLarge.rate).toFixed(2)}; ` +
    `CPU: agent ${m((r) => (r.cpu.agent * 1000) / r.lines).toFixed(1)} us/line, master ${m((r) => (r.cpu.master * 1000) / r.lines).toFixed(1)} us/line` +
    (f.rounds.some((r) => r.cpu.store > 0)
      ? `, ClickHouse ${m((r) => (r.cpu.store * 1000) / r.lines).toFixed(1)} us/line`
      : '') +
    `; raw insert CPU ${m((r) => (rawCpuOf(r.raw) * 1000) / r.lines).toFixed(1)} us/row (5000 a time ${m((r) => (rawCpuOf(r.rawLarge) * 1000) / r.lines).toFixed(1)}); ` +
    `CPU ratio raw / shipping ${m((r) => rawCpuOf(r.raw) / cpuOf(r.cpu)).toFixed(2)} (5000 a time ${m((r) => rawCpuOf(r.rawLarge) / cpuOf(r.cpu)).toFixed(2)}); ` +
    `ratios by round: rate ${f.rounds.map((r) => (r.rate / r.raw.rate).toFixed(2)).join(', ')}; CPU ${f.rounds.map((r) => (rawCpuOf(r.raw) / cpuOf(r.cpu)).toFixed(2)).join(', ')}`
  );
}

export const shippingLine = (store: string, f: ShippingFigures) =>
  `log shipping (${store}): ${f.lines} lines from the nginx log to stored rows at ${f.endToEnd.toFixed(0)} lines/s ` +
  `(agent start included: ${f.startMs.toFixed(0)} ms to the first stored batch; shipping alone ${f.shippingOnly.toFixed(0)} lines/s); ` +
  `raw bulk insert ${f.raw.toFixed(0)} lines/s; ratio ${(f.endToEnd / f.raw).toFixed(2)} (shipping alone ${(f.shippingOnly / f.raw).toFixed(2)}); ` +
  `raw at 5000 rows a time ${f.rawLarge.toFixed(0)} lines/s: ratio ${(f.endToEnd / f.rawLarge).toFixed(2)} (shipping alone ${(f.shippingOnly / f.rawLarge).toFixed(2)}); ` +
  `CPU: agent ${f.cpu.agent} ms (${f.cpu.agentStart} ms of it to the first stored batch; ${(((f.cpu.agent - f.cpu.agentStart) * 1000) / f.lines).toFixed(1)} us/line after), ` +
  `master ${f.cpu.master} ms (${((f.cpu.master * 1000) / f.lines).toFixed(1)} us/line)` +
  (f.cpu.store > 0 ? `, ClickHouse ${f.cpu.store} ms` : '') +
  `; raw insert CPU: ${f.rawCpu.client} ms` +
  (f.rawCpu.store > 0 ? ` + ClickHouse ${f.rawCpu.store} ms` : '') +
  ` (${(((f.rawCpu.client + f.rawCpu.store) * 1000) / f.lines).toFixed(1)} us/row); ` +
  `CPU ratio raw / shipping ${((f.rawCpu.client + f.rawCpu.store) / (f.cpu.agent + f.cpu.master + f.cpu.store)).toFixed(2)} ` +
  `(agent's start included; without its CPU up to the first stored batch ${((f.rawCpu.client + f.rawCpu.store) / (f.cpu.agent - f.cpu.agentStart + f.cpu.master + f.cpu.store)).toFixed(2)})` +
  (f.rawLargeCpu
    ? `; raw at 5000 rows a time CPU ${f.rawLargeCpu.client} ms` +
      (f.rawLargeCpu.store > 0 ? ` + ClickHouse ${f.rawLargeCpu.store} ms` : '') +
      `: CPU ratio ${((f.rawLargeCpu.client + f.rawLargeCpu.store) / (f.cpu.agent + f.cpu.master + f.cpu.store)).toFixed(2)} ` +
      `(without the agent's start ${((f.rawLargeCpu.client + f.rawLargeCpu.store) / (f.cpu.agent - f.cpu.agentStart + f.cpu.master + f.cpu.store)).toFixed(2)})`
    : '');

if (import.meta.main) {
  const stores = (process.env.BENCH_STORES ?? 'sqlite,clickhouse').split(',') as LogStoreKind[];
  const loadSeconds = Number(process.env.BENCH_LOAD_SECONDS ?? 3);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const mode = process.env.BENCH_SHIPPING ?? 'steady';
  const variants: ShippingVariant[] = mode === 'both' ? ['steady', 'restart'] : [mode as ShippingVariant];
  const origin = await freePort();
  const originNginx = startPlainNginx(
    'origin',
    `    access_log off;
    server { listen 127.0.0.1:${origin}; location / { return 200 "origin\\n"; } }`,
  );
  try {
    console.log(
      `date: ${new Date().toISOString()}  node ${process.version}  load ${loadSeconds} s, wrk -t1 -c32; ${variants.join(' then ')}; ` +
        `load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
    );
    for (const store of stores) {
      for (const line of await benchStore(store, origin, { loadSeconds, rounds, variants })) console.log(line);
    }
  } finally {
    originNginx.stop();
  }
}
