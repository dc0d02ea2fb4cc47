// The signed-in path as the server sees it: the master (apps/master/src/server.ts, its own process)
// and a bare Fastify route each driven by wrk, and the CPU time the server process spent per request
// read from /proc (user + system), which holds steadier than req/s on a busy machine. With
// BENCH_PROFILE=1 the master also runs once under `node --cpu-prof` and the profile is summarised
// (bench/cpu-profile-summary.ts). Usage:
//   node_modules/.bin/node bench/signed-in-profile.ts   [BENCH_PATH=/v1/user BENCH_SECONDS=5 BENCH_ROUNDS=3
//   BENCH_SITES=100000 (seeds that many sites for the signed-in user first) BENCH_PROFILE=1]
// With BENCH_SITES and a /v1/sites path, a third server joins the rounds: a bare Fastify route reading
// the same page with raw SQL (bench/signed-in-raw-sql.ts), the floor for a list call.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { summarise } from './cpu-profile-summary.ts';
import { cpuSeconds } from './nginx-cpu.ts';
import { seededDataDir, USER_ACCOUNT, USER_PASSWORD } from './signed-in-seed.ts';
import { freePort, median, ROOT, start, stop, tempDir, waitFor200, wrk } from './support.ts';

const PATH = process.env.BENCH_PATH ?? '/v1/user';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SITES = Number(process.env.BENCH_SITES ?? 0);
const PROFILE = process.env.BENCH_PROFILE === '1';

async function startMaster(dataDir: string, nodeArgs: string[]) {
  const port = await freePort();
  const child = start(process.execPath, [...nodeArgs, join(ROOT, 'apps/master/src/server.ts')], {
    RAMPART_PORT: String(port),
    RAMPART_DATA_DIR: dataDir,
    RAMPART_ADMIN_PASSWORD: 'bench-admin-pass',
    RAMPART_LOG_LEVEL: 'warn',
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor200(`${base}/v1/common/sysinfo`, performance.now());
  const login = await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: USER_ACCOUNT, password: USER_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  return { child, url: `${base}${PATH}`, lua: `wrk.headers["Access-Token"] = "${token}"` };
}

interface Run {
  perSecond: number;
  cpuMicros: number;
}

/** One wrk run (-c32) and the server's CPU per answered request. */
function measure(pid: number, url: string, lua?: string): Run {
  const before = cpuSeconds([pid]);
  const result = wrk(url, { seconds: SECONDS, connections: 32, ...(lua ? { lua } : {}) });
  return { perSecond: result.requestsPerSecond, cpuMicros: ((cpuSeconds([pid]) - before) * 1e6) / result.requests };
}

const dataDir = await seededDataDir(SITES);
const master = await startMaster(dataDir, []);
const barePort = await freePort();
const bare = start(process.execPath, [join(ROOT, 'bench/bare-fastify.ts')], { RAMPART_PORT: String(barePort) });
const bareUrl = `http://127.0.0.1:${barePort}/bare`;
const RAW_SQL = SITES > 0 && PATH.startsWith('/v1/sites');
const rawPort = await freePort();
const raw = RAW_SQL
  ? start(process.execPath, [join(ROOT, 'bench/signed-in-raw-sql.ts')], {
      RAMPART_PORT: String(rawPort),
      RAMPART_DATA_DIR: dataDir,
    })
  : undefined;
const rawUrl = `http://127.0.0.1:${rawPort}/raw-sites${PATH.includes('?') ? PATH.slice(PATH.indexOf('?')) : ''}`;
const masterRuns: Run[] = [];
const bareRuns: Run[] = [];
const rawRuns: Run[] = [];
try {
  await waitFor200(bareUrl, performance.now());
  if (raw) await waitFor200(rawUrl, performance.now());
  const masterPid = master.child.pid ?? 0;
  const barePid = bare.pid ?? 0;
  // Warm them all (JIT, lazily compiled schemas) before measuring.
  wrk(master.url, { seconds: 1, connections: 32, lua: master.lua });
  wrk(bareUrl, { seconds: 1, connections: 32 });
  if (raw) wrk(rawUrl, { seconds: 1, connections: 32 });
  for (let round = 0; round < ROUNDS; round++) {
    bareRuns.push(measure(barePid, bareUrl));
    if (raw) rawRuns.push(measure(raw.pid ?? 0, rawUrl));
    masterRuns.push(measure(masterPid, master.url, master.lua));
  }
} finally {
  await stop(master.child);
  await stop(bare);
  if (raw) await stop(raw);
}

const bareCpu = median(bareRuns.map((run) => run.cpuMicros));
const masterCpu = median(masterRuns.map((run) => run.cpuMicros));
const bareRate = median(bareRuns.map((run) => run.perSecond));
const masterRate = median(masterRuns.map((run) => run.perSecond));
console.log(
  `date: ${new Date().toISOString()}  node ${process.version}  wrk -t1 -c32, ${SECONDS} s a run, ${ROUNDS} alternating rounds (medians)${SITES ? `, ${SITES} sites` : ''}  load ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
);
console.log(`bare Fastify route: ${bareRate.toFixed(0)} req/s, ${bareCpu.toFixed(1)} µs server CPU a request`);
if (raw) {
  const rawCpu = median(rawRuns.map((run) => run.cpuMicros));
  const rawRate = median(rawRuns.map((run) => run.perSecond));
  console.log(
    `raw SQL route, same page: ${rawRate.toFixed(0)} req/s, ${rawCpu.toFixed(1)} µs server CPU a request; GET ${PATH} against it: req/s ratio ${(masterRate / rawRate).toFixed(3)}, CPU ratio ${(rawCpu / masterCpu).toFixed(3)}`,
  );
}
console.log(
  `GET ${PATH}: ${masterRate.toFixed(0)} req/s (ratio ${(masterRate / bareRate).toFixed(3)}), ${masterCpu.toFixed(1)} µs server CPU a request (ratio ${(bareCpu / masterCpu).toFixed(3)})`,
);

if (PROFILE) {
  const profileDir = tempDir('rampart-cpu-prof-');
  const profiled = await startMaster(dataDir, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]);
  try {
    wrk(profiled.url, { seconds: 1, connections: 32, lua: profiled.lua });
    wrk(profiled.url, { seconds: SECONDS, connections: 32, lua: profiled.lua });
  } finally {
    await stop(profiled.child);
  }
  const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${profileDir}`);
  const costs = summarise(JSON.parse(readFileSync(join(profileDir, file), 'utf8')), SECONDS);
  const row = (cost: { selfPercent: number; totalPercent: number; name: string }) =>
    `${cost.selfPercent.toFixed(1).padStart(6)} ${cost.totalPercent.toFixed(1).padStart(6)}  ${cost.name}`;
  console.log(`\nprofile: ${join(profileDir, file)} (the last ${SECONDS} s: the measured wrk run)`);
  console.log('top by self time:   self  total  function');
  for (const cost of [...costs].sort((a, b) => b.selfPercent - a.selfPercent).slice(0, 30)) console.log(row(cost));
  console.log('top by inclusive time:');
  for (const cost of [...costs].sort((a, b) => b.totalPercent - a.totalPercent).slice(0, 40)) console.log(row(cost));
}
