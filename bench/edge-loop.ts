import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Site } from '@rampart/contracts';
import { Nginx } from '../apps/agent/src/apply/nginx.ts';
import { agentPaths } from '../apps/agent/src/paths.ts';
import { agentCommandLine } from '../apps/agent/test/support/agent.ts';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import { acceptFirstPendingNode, adminToken, api, MasterProcess } from '../apps/agent/test/support/master-process.ts';
import { freePort } from '../apps/agent/test/support/ports.ts';
import { openDatabase } from '../apps/master/src/db/database.ts';
import { masterPid, measureShipping, rawSqliteInsert, shippingLine } from './log-shipping.ts';
import { NGINX } from './nginx-process.ts';
import { median, ROOT, tempDir, until } from './support.ts';

const CHANGES = Number(process.env.BENCH_CHANGES ?? 100);
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

/** Figures 4 and 5: the real master, the agent as a process, and its nginx. */
export async function edgeLoop(originPorts: { a: number; b: number }): Promise<string[]> {
  const master = new MasterProcess(await freePort(), tempDir('rampart-bench-master-'));
  await master.start();
  const admin = await adminToken(master);
  const ports = { http: await freePort(), https: await freePort() };
  const agentDir = tempDir('rampart-bench-agent-');
  const { install_token } = await api<{ install_token: string }>(master, 'GET', '/v1/nodes/install-token', admin);
  const args = [
    join(ROOT, 'apps/agent/src/main.ts'),
    ...agentCommandLine({
      master: master.url,
      token: install_token,
      dataDir: agentDir,
      controlPort: await freePort(),
    }),
  ];
  const spawnAgent = () =>
    spawn(process.execPath, args, { stdio: ['ignore', 'ignore', process.env.BENCH_VERBOSE ? 'inherit' : 'ignore'] });
  let agent: ChildProcess = spawnAgent();
  // The agent leaves nginx serving when it stops (by design); the bench stops it too.
  const agentNginx = () => {
    const paths = agentPaths(agentDir);
    return new Nginx({ binary: NGINX, prefix: paths.nginxDir, errorLog: paths.errorLog, pidFile: paths.pidFile });
  };
  const stopAgent = async () => {
    if (agent.exitCode !== null || agent.signalCode !== null) return;
    const exited = new Promise((done) => agent.once('exit', done));
    agent.kill('SIGTERM');
    await exited;
  };
  const lines: string[] = [];
  try {
    await acceptFirstPendingNode(master, admin, { http_port: ports.http, https_port: ports.https });
    const origin = (port: number) => [{ address: '127.0.0.1', port, weight: 1, backup: false }];
    const site = await api<Site>(master, 'POST', '/v1/sites', admin, {
      domains: ['loop.bench.test'],
      origins: origin(originPorts.a),
    });
    const served = async () => {
      const answer = await edgeRequest(ports.http, { host: 'loop.bench.test' });
      return answer.status === 200 ? answer.body.trim() : undefined;
    };
    await until(async () => ((await served()) === 'origin-a' ? true : undefined), 15_000);

    // Each change is unique (a response header carrying its number), so an answer from an old
    // worker that is still retiring can never pass for the new config.
    const changeServed = async (mark: string) => {
      const answer = await edgeRequest(ports.http, { host: 'loop.bench.test' });
      return answer.headers['x-change'] === mark ? true : undefined;
    };
    const propagation: number[] = [];
    const roundTrips: number[] = [];
    for (let i = 1; i <= CHANGES; i++) {
      const started = performance.now();
      await api(master, 'PUT', `/v1/sites/${site.id}`, admin, {
        response_headers: [{ name: 'X-Change', value: String(i) }],
      });
      await until(() => changeServed(String(i)), 10_000);
      propagation.push(performance.now() - started);
      const trip = performance.now();
      await api(master, 'GET', `/v1/sites/${site.id}`, admin);
      roundTrips.push(performance.now() - trip);
    }
    lines.push(
      `API change → served by the edge (${CHANGES} changes): p50 ${percentile(propagation, 0.5).toFixed(0)} ms, p95 ${percentile(propagation, 0.95).toFixed(0)} ms; one API round trip ${median(roundTrips).toFixed(1)} ms`,
    );

    // Log shipping: lines written while the agent is stopped, then shipped in one go when it starts.
    const store = openDatabase({ dataDir: master.dataDir });
    const stored = async () =>
      Number(
        (
          await store.logs
            .selectFrom('access_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    try {
      const figures = await measureShipping({
        httpPort: ports.http,
        host: 'loop.bench.test',
        stopAgent,
        startAgent: () => {
          agent = spawnAgent();
          return agent.pid ?? 0;
        },
        stored,
        loadSeconds: 3,
        masterPid: masterPid(master.dataDir),
      });
      const raw = await rawSqliteInsert(figures.lines);
      const rawLarge = await rawSqliteInsert(figures.lines, 5000);
      lines.push(
        shippingLine('sqlite', {
          ...figures,
          raw: raw.rate,
          rawLarge: rawLarge.rate,
          rawCpu: raw.cpu,
          rawLargeCpu: rawLarge.cpu,
        }),
      );
    } finally {
      await store.close();
    }
  } finally {
    await stopAgent().catch(() => undefined);
    await agentNginx().stop(2000);
    await master.stop();
  }
  return lines;
}
