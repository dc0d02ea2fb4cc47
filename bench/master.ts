// Master figures of the foundation: cold start and auth call throughput, each as a ratio to a bare
// Fastify server measured in the same run. Usage: node bench/master.ts  (needs wrk and a dashboard build)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, median, ROOT, start, stop, tempDir, type WrkResult, waitFor200, wrk } from './support.ts';

const NODE = process.execPath;
const PASSWORD = 'bench-admin-pass';
const RUNS = 5;
const ROUNDS = 3;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

if (!existsSync(join(ROOT, 'apps/dashboard/dist/index.html'))) {
  throw new Error('build the dashboard first: npm run build --workspace apps/dashboard');
}

async function coldStart(args: string[], path: string, logLevel: string): Promise<number> {
  const port = await freePort();
  const began = performance.now();
  const child = start(NODE, args, {
    RAMPART_PORT: String(port),
    RAMPART_DATA_DIR: tempDir('rampart-bench-'),
    RAMPART_ADMIN_PASSWORD: PASSWORD,
    RAMPART_LOG_LEVEL: logLevel,
  });
  try {
    return await waitFor200(`http://127.0.0.1:${port}${path}`, began);
  } finally {
    await stop(child);
  }
}

const masterStarts: number[] = [];
const bareStarts: number[] = [];
for (let run = 0; run < RUNS; run++) {
  masterStarts.push(await coldStart([join(ROOT, 'scripts/start.mjs')], '/dashboard/', 'warn'));
  bareStarts.push(await coldStart([join(ROOT, 'bench/bare-fastify.ts')], '/bare', 'warn'));
}

const port = await freePort();
const master = start(NODE, [join(ROOT, 'apps/master/src/server.ts')], {
  RAMPART_PORT: String(port),
  RAMPART_DATA_DIR: tempDir('rampart-bench-'),
  RAMPART_ADMIN_PASSWORD: PASSWORD,
  RAMPART_LOG_LEVEL: 'warn',
});
const barePort = await freePort();
const bare = start(NODE, [join(ROOT, 'bench/bare-fastify.ts')], { RAMPART_PORT: String(barePort) });
try {
  const base = `http://127.0.0.1:${port}`;
  await waitFor200(`${base}/v1/common/sysinfo`, performance.now());
  await waitFor200(`http://127.0.0.1:${barePort}/bare`, performance.now());
  const login = await fetch(`${base}/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: PASSWORD }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;

  // Alternate the two servers for several rounds and compare medians: single runs swing by 20%.
  const bareRuns: WrkResult[] = [];
  const userRuns: WrkResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRuns.push(wrk(`http://127.0.0.1:${barePort}/bare`, { seconds: SECONDS, connections: 32 }));
    userRuns.push(
      wrk(`${base}/v1/user`, { seconds: SECONDS, connections: 32, lua: `wrk.headers["Access-Token"] = "${token}"` }),
    );
  }
  const mid = (runs: WrkResult[]): WrkResult => ({
    requests: median(runs.map((run) => run.requests)),
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    failed: 0,
  });
  const bareRoute = mid(bareRuns);
  const currentUser = mid(userRuns);
  const loginRoute = wrk(`${base}/v1/login`, {
    seconds: SECONDS,
    connections: 8,
    lua: `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '{"account":"admin","password":"${PASSWORD}"}'`,
  });

  const fixed = (value: number, digits = 1) => value.toFixed(digits);
  console.log(
    `date: ${new Date().toISOString()}  node ${process.version}  wrk -t1, ${SECONDS} s per run, ${ROUNDS} alternating rounds (medians)`,
  );
  console.log(
    `cold start to first 200 (median of ${RUNS}): npm start → /dashboard/ ${fixed(median(masterStarts), 0)} ms; bare Fastify ${fixed(median(bareStarts), 0)} ms`,
  );
  console.log(
    `bare Fastify route: ${fixed(bareRoute.requestsPerSecond, 0)} req/s, p99 ${fixed(bareRoute.p99Ms, 2)} ms`,
  );
  console.log(
    `GET /v1/user:       ${fixed(currentUser.requestsPerSecond, 0)} req/s, p99 ${fixed(currentUser.p99Ms, 2)} ms, ratio ${fixed(currentUser.requestsPerSecond / bareRoute.requestsPerSecond, 3)}`,
  );
  console.log(
    `POST /v1/login:     ${fixed(loginRoute.requestsPerSecond, 0)} req/s, p99 ${fixed(loginRoute.p99Ms, 2)} ms, ratio ${fixed(loginRoute.requestsPerSecond / bareRoute.requestsPerSecond, 4)} (scrypt N=16384 per login)`,
  );
} finally {
  await stop(master);
  await stop(bare);
}
