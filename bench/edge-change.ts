// A change to live on a busy node, end to end: the real master, the agent as a process and its
// nginx. Each change sets a unique response header on one site through `PUT /v1/sites/{id}` and is
// timed from the API's 2xx until the first edge answer (a fresh connection) that carries it. Rounds:
// idle; under load (wrk on another site at about half the node's capacity, measured first, for
// the whole round); then the same two with 10,000 more sites on the node. p50, p95 and max of each.
// Usage: node bench/edge-change.ts   (BENCH_CHANGES, default 40; BENCH_SITES, default 10000;
// BENCH_DOMAIN_PROOF=1: proof of domain ownership on, as on a new installation, switched on after the
// sites are seeded so that every domain is proved: each snapshot then reads which domains are proved)
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Site } from '@rampart/contracts';
import { Nginx } from '../apps/agent/src/apply/nginx.ts';
import { agentPaths } from '../apps/agent/src/paths.ts';
import { agentCommandLine } from '../apps/agent/test/support/agent.ts';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import { acceptFirstPendingNode, adminToken, api, MasterProcess } from '../apps/agent/test/support/master-process.ts';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { NGINX, startBenchOrigin } from './nginx-process.ts';
import { seedSites } from './site-seed.ts';
import { freePort, pause, percentile, ROOT, tempDir, until, wrk } from './support.ts';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 40);
const SITES = Number(process.env.BENCH_SITES ?? 10_000);

/** wrk on `host` until stopped, each of its 32 connections pausing `delayMs` between requests. */
function startLoad(url: string, host: string, delayMs: number): { stop: () => Promise<number> } {
  const script = join(tempDir('rampart-wrk-'), 'load.lua');
  writeFileSync(script, `wrk.headers["Host"] = "${host}"\nfunction delay() return ${delayMs.toFixed(2)} end\n`);
  const child: ChildProcess = spawn('wrk', ['-t1', '-c32', '-d600s', '-s', script, url], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const started = performance.now();
  return {
    stop: async () => {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGINT'); // wrk prints its summary on SIGINT
      await exited;
      const requests = Number(output.match(/(\d+) requests in/)?.[1] ?? 0);
      return requests / ((performance.now() - started) / 1000);
    },
  };
}

const lines: string[] = [
  `date: ${new Date().toISOString()}  node ${process.version}  ${CHANGES} changes a round; nginx with 1 worker`,
];
const { port: originPort, nginx: origin } = await startBenchOrigin();
const master = new MasterProcess(await freePort(), tempDir('rampart-bench-master-'));
await master.start();
const admin = await adminToken(master);
const ports = { http: await freePort(), https: await freePort() };
const agentDir = tempDir('rampart-bench-agent-');
const { install_token } = await api<{ install_token: string }>(master, 'GET', '/v1/nodes/install-token', admin);
const agentArgs = [
  join(ROOT, 'apps/agent/src/main.ts'),
  ...agentCommandLine({ master: master.url, token: install_token, dataDir: agentDir, controlPort: await freePort() }),
];
const agent = spawn(process.execPath, agentArgs, {
  stdio: ['ignore', 'ignore', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore'],
});
try {
  await acceptFirstPendingNode(master, admin, { http_port: ports.http, https_port: ports.https });
  const origins = [{ address: '127.0.0.1', port: originPort, weight: 1, backup: false }];
  const changed = await api<Site>(master, 'POST', '/v1/sites', admin, { domains: ['change.bench.test'], origins });
  await api<Site>(master, 'POST', '/v1/sites', admin, { domains: ['load.bench.test'], origins });
  const edgeUrl = `http://127.0.0.1:${ports.http}/`;
  const servedBy = async (host: string) => (await edgeRequest(ports.http, { host })).status === 200 || undefined;
  await until(() => servedBy('change.bench.test'), 30_000);
  await until(() => servedBy('load.bench.test'), 30_000);

  let mark = 0;
  const round = async (label: string, load: boolean, capacity: number) => {
    // 32 connections each waiting as long as an answer takes at full load: about half the capacity.
    const generator = load ? startLoad(edgeUrl, 'load.bench.test', (32 / capacity) * 1000) : null;
    if (generator) await pause(1000);
    const times: number[] = [];
    try {
      for (let i = 0; i < CHANGES; i++) {
        const value = `c${++mark}`;
        await api(master, 'PUT', `/v1/sites/${changed.id}`, admin, {
          response_headers: [{ name: 'X-Change', value }],
        });
        const started = performance.now();
        if (process.env.BENCH_VERBOSE) console.error(`${new Date().toISOString()} change ${value} accepted`);
        await until(
          async () =>
            (await edgeRequest(ports.http, { host: 'change.bench.test' })).headers['x-change'] === value || undefined,
          30_000,
        );
        times.push(performance.now() - started);
      }
    } finally {
      const rate = generator ? await generator.stop() : 0;
      const f = (p: number) => percentile(times, p).toFixed(0);
      lines.push(
        `${label}: p50 ${f(0.5)} ms, p95 ${f(0.95)} ms, max ${Math.max(...times).toFixed(0)} ms${load ? `; load ${rate.toFixed(0)} req/s on another site (capacity ${capacity.toFixed(0)} req/s)` : ''}`,
      );
    }
  };

  const capacity = () =>
    wrk(edgeUrl, { seconds: 3, connections: 32, lua: 'wrk.headers["Host"] = "load.bench.test"' }).requestsPerSecond;
  let full = capacity();
  await round('change → served, 2 sites, idle', false, full);
  await round('change → served, 2 sites, under load', true, full);

  if (SITES > 0) {
    const store = openDatabase({ dataDir: master.dataDir });
    try {
      await seedSites(store.db, store.dialect, 1, SITES);
    } finally {
      await store.close();
    }
    if (process.env.BENCH_DOMAIN_PROOF === '1') {
      // Switched on, proof keeps every domain already on a site live (proved as `live`).
      await api(master, 'PUT', '/v1/configs/global-0-system-domains', admin, { domain_proof: true });
      lines.push('proof of domain ownership on (every domain proved)');
    }
    // A change through the API sends the node the larger snapshot.
    await api(master, 'PUT', `/v1/sites/${changed.id}`, admin, { response_headers: [] });
    await until(
      async () => (await edgeRequest(ports.http, { host: 's1.bench.example.com' })).status !== 404 || undefined,
      300_000,
    );
    full = capacity();
    await round(`change → served, ${SITES} more sites, idle`, false, full);
    await round(`change → served, ${SITES} more sites, under load`, true, full);
  }
} finally {
  const exited = new Promise((done) => agent.once('exit', done));
  agent.kill('SIGTERM');
  await exited;
  const paths = agentPaths(agentDir);
  await new Nginx({ binary: NGINX, prefix: paths.nginxDir, errorLog: paths.errorLog, pidFile: paths.pidFile }).stop(
    2000,
  );
  await master.stop();
  origin.stop();
}
console.log(lines.join('\n'));
