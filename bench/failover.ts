// Failover: time from a node's death (its web server killed) to its IP leaving the authoritative
// answer at PowerDNS, over 20 trials, against the configured interval x failures (target: at most
// one interval more). Usage: node bench/failover.ts [interval_seconds] [failures]  (needs pdns_server)
import { type ChildProcess, spawn } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { saveSetting } from '../apps/master/src/modules/settings/settings.service.ts';
import { launchPowerDns } from '../apps/master/src/test/powerdns-server.ts';
import { BENCH_ADMIN_PASSWORD, startInProcessMaster } from './in-process.ts';
import { freePort, median } from './support.ts';

const INTERVAL_SECONDS = Number(process.argv[2] ?? 1);
const FAILURES = Number(process.argv[3] ?? 3);
const TRIALS = 20;
const ZONE = 'failover.bench.test';
const FQDN = `lg.cdn.${ZONE}`;
const DYING = '127.0.0.71';
const STEADY = '127.0.0.72';

interface Envelope<T> {
  code: number | string;
  msg: string;
  data: T;
}

async function call<T>(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers['access-token'] = token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** A node's web server in a process of its own, so that killing it is a node dying. */
function nodeServer(ip: string, port: number): Promise<ChildProcess> {
  const script = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '${ip}', () => process.stdout.write('up\\n'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`node server on ${ip}:${port} exited with ${code}`)));
  });
}

async function kill(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const pdns = await launchPowerDns();
await pdns.createZone(ZONE);
const resolver = new Resolver({ timeout: 1000, tries: 1 });
resolver.setServers([pdns.dnsAddress]);
const answer = async () => {
  try {
    return await resolver.resolve4(FQDN);
  } catch {
    return [];
  }
};
/** Polls the authoritative answer every 10 ms until `done` holds; answers when it first did. */
const until = async (done: (ips: string[]) => boolean, limitMs = 120_000) => {
  const since = performance.now();
  while (performance.now() - since < limitMs) {
    if (done(await answer())) return performance.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the answer did not change in time');
};

const { app, database, base } = await startInProcessMaster('rampart-bench-failover-');
const servers: ChildProcess[] = [];
try {
  await saveSetting(database.db, 'dnsapi_allow_private', true);
  const token = (
    await call<{ access_token: string }>(base, 'POST', '/v1/login', null, {
      account: 'admin',
      password: BENCH_ADMIN_PASSWORD,
    })
  ).access_token;
  await call(base, 'PUT', '/v1/configs/global-0-node-monitor', token, {
    enabled: true,
    probe: 'http',
    path: '/',
    expected_status: 200,
    interval_seconds: INTERVAL_SECONDS,
    timeout_seconds: Math.min(1, INTERVAL_SECONDS),
    failures: FAILURES,
    successes: 1,
    voters: 'master',
  });
  const dnsapi = await call<{ id: number }>(base, 'POST', '/v1/dnsapis', token, {
    name: 'pdns',
    provider: 'powerdns',
    credentials: { url: pdns.apiUrl, api_key: pdns.apiKey },
  });
  const domain = await call<{ id: number }>(base, 'POST', '/v1/cname-domains', token, {
    domain: `cdn.${ZONE}`,
    is_default: true,
    dnsapi_id: dnsapi.id,
    zone: ZONE,
  });
  const { install_token } = await call<{ install_token: string }>(base, 'GET', '/v1/nodes/install-token', token);
  const ports: Record<string, number> = {};
  for (const ip of [DYING, STEADY]) {
    ports[ip] = await freePort();
    servers.push(await nodeServer(ip, ports[ip] ?? 0));
    const { pending_id } = await call<{ pending_id: number }>(base, 'POST', '/agent/v1/register', null, {
      install_token,
      hostname: `node-${ip}`,
      ips: [ip],
      agent_version: 'bench',
    });
    await call(base, 'POST', '/v1/nodes', token, { pending_id, name: `node-${ip}`, http_port: ports[ip] });
  }
  const lines = await call<{ list: { id: number; code: string }[] }>(base, 'GET', '/v1/lines', token);
  const line = lines.list.find((entry) => entry.code === 'default')?.id ?? 0;
  await call(base, 'POST', '/v1/node-groups', token, {
    name: 'bench',
    cname_domain_id: domain.id,
    host: 'lg',
    records: [
      { line_id: line, ip: DYING },
      { line_id: line, ip: STEADY },
    ],
  });

  const times: number[] = [];
  let dying = servers[0] as ChildProcess;
  for (let trial = 1; trial <= TRIALS; trial++) {
    await until((ips) => ips.includes(DYING));
    // Die at a random point of the probe cycle, as a real node does.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * INTERVAL_SECONDS * 1000));
    const diedAt = performance.now();
    await kill(dying);
    const goneAt = await until((ips) => !ips.includes(DYING));
    times.push((goneAt - diedAt) / 1000);
    console.error(`trial ${trial}: ${((goneAt - diedAt) / 1000).toFixed(2)} s`);
    dying = await nodeServer(DYING, ports[DYING] ?? 0);
    servers[0] = dying;
  }
  times.sort((a, b) => a - b);
  const budget = INTERVAL_SECONDS * FAILURES;
  console.log(
    JSON.stringify({
      interval_seconds: INTERVAL_SECONDS,
      failures: FAILURES,
      interval_x_failures_s: budget,
      target_s: budget + INTERVAL_SECONDS,
      trials: TRIALS,
      p50_s: Number(median(times).toFixed(2)),
      max_s: Number((times.at(-1) ?? 0).toFixed(2)),
      min_s: Number((times[0] ?? 0).toFixed(2)),
    }),
  );
} finally {
  for (const server of servers) if (server.exitCode === null) await kill(server);
  await app.close();
  await database.close();
  await pdns.close();
}
