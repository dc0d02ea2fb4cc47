import { type ChildProcess, spawn } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { createWriteStream, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PowerDns } from '../../../master/src/test/powerdns-server.ts';
import type { Nginx } from '../../src/apply/nginx.ts';
import { agentNginx } from '../support/agent.ts';
import { NGINX_BINARY } from '../support/edge.ts';
import { edgeRequest, eventually } from '../support/http.ts';
import { adminToken, api, MasterProcess } from '../support/master-process.ts';
import { type Origin, startOrigin } from '../support/origin.ts';
import { freePort } from '../support/ports.ts';

const MAIN = join(import.meta.dirname, '../../src/main.ts');

/** One edge node: an agent process listening on its own loopback address, with its own nginx. */
export class EdgeAgent {
  readonly ip: string;
  readonly dataDir: string;
  readonly nginx: Nginx;
  private readonly args: string[];
  private child: ChildProcess | null = null;
  private stopped = false;

  constructor(ip: string, dataDir: string, args: string[]) {
    this.ip = ip;
    this.dataDir = dataDir;
    this.args = args;
    this.nginx = agentNginx(dataDir);
  }

  /** Starts the agent; `env` adds to its environment (and to the nginx it starts). */
  start(env: Record<string, string> = {}): void {
    const child = spawn(process.execPath, [MAIN, ...this.args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    // RAMPART_FAULTS_LOG_DIR keeps each agent's log, to see why a fault did not end as expected.
    const logDir = process.env.RAMPART_FAULTS_LOG_DIR;
    if (logDir) child.stderr?.pipe(createWriteStream(join(logDir, `agent-${this.ip}.log`), { flags: 'a' }));
    else child.stderr?.resume();
    this.child = child;
    this.stopped = false;
  }

  get pid(): number {
    if (!this.child?.pid) throw new Error(`the agent on ${this.ip} is not running`);
    return this.child.pid;
  }

  /** SIGSTOP: the agent hangs (not dead); its nginx keeps serving. */
  pause(): void {
    process.kill(this.pid, 'SIGSTOP');
    this.stopped = true;
  }

  resume(): void {
    if (this.child && this.stopped) process.kill(this.pid, 'SIGCONT');
    this.stopped = false;
  }

  /** kill -9 of the agent (nginx keeps serving). */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    if (this.stopped) child.kill('SIGCONT');
    child.kill('SIGKILL');
    this.stopped = false;
    await exited;
  }

  /** kill -9 of nginx's master and every process it runs: the edge refuses connections. */
  async killNginx(): Promise<void> {
    const master = await this.nginx.pid();
    if (master !== null) process.kill(master, 'SIGKILL');
    // Its workers and cache processes, orphaned now, go too.
    await eventually(async () => {
      for (const pid of await this.nginx.orphans()) process.kill(pid, 'SIGKILL');
      if ((await this.nginx.pid()) !== null || (await this.nginx.orphans()).length > 0) throw new Error('nginx runs');
    }, 10_000);
  }

  /** The config trees on disk (a new one appears while an apply is under way). */
  async trees(): Promise<string[]> {
    return readdir(join(this.dataDir, 'nginx', 'conf')).catch(() => []);
  }

  async close(): Promise<void> {
    await this.kill();
    await this.nginx.stop(2000);
    await this.nginx.stopOrphans();
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * What the master sees of PowerDNS's HTTP API: a TCP relay on loopback that can go away (connections
 * refused, as when PowerDNS is down) and come back on the same port.
 */
export class ApiRelay {
  readonly port: number;
  private readonly target: number;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  constructor(port: number, target: number) {
    this.port = port;
    this.target = target;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = new Socket();
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.connect(this.target, '127.0.0.1', () => {
        client.pipe(upstream).pipe(client);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Measured times of the suite, written where the README table and the benchmark figures come from. */
export class FaultTimes {
  private readonly rows: { fault: string; what: string; ms: number }[] = [];

  record(fault: string, what: string, ms: number): void {
    this.rows.push({ fault, what, ms: Math.round(ms) });
  }

  write(settings: unknown): string {
    const file = process.env.RAMPART_FAULT_TIMES ?? join(tmpdir(), 'rampart-fleet-faults.json');
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), settings, times: this.rows }, null, 2)}\n`);
    return file;
  }
}

export interface NodeRow {
  id: number;
  ips: string[];
  status: string;
  last_seen_at: string | null;
  applied_version: number;
  last_error: string;
  dropped_log_lines: number;
  clock_offset_seconds: number | null;
}

export const ZONE = 'faults.rampart.test';
export const FQDN = `lg.cdn.${ZONE}`;
export const SITE = 'shop.faults.test';

/**
 * The fleet: a master from source, PowerDNS (the test run's shared one, or one of its own in a bench)
 * behind a relay, two agents on 127.0.0.2 and 127.0.0.3.
 */
export async function startFleet(monitor: Record<string, unknown>, launchPowerDns: () => Promise<PowerDns>) {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    return await setUp(monitor, launchPowerDns, cleanups);
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    throw error;
  }
}

async function setUp(
  monitor: Record<string, unknown>,
  launchPowerDns: () => Promise<PowerDns>,
  cleanups: (() => Promise<void>)[],
) {
  const pdns = await launchPowerDns();
  cleanups.push(() => pdns.close());
  await pdns.createZone(ZONE);
  const relay = new ApiRelay(await freePort(), Number(new URL(pdns.apiUrl).port));
  await relay.up();
  cleanups.push(() => relay.down());
  const origin: Origin = await startOrigin('origin');
  cleanups.push(() => origin.close());
  const master = new MasterProcess(await freePort(), await mkdtemp(join(tmpdir(), 'rampart-faults-master-')));
  await master.start();
  cleanups.push(async () => {
    await master.stop();
    await rm(master.dataDir, { recursive: true, force: true });
  });
  const admin = await adminToken(master);
  const call = <T>(method: string, path: string, body?: unknown) => api<T>(master, method, path, admin, body);

  await call('PUT', '/v1/configs/global-0-system-dns', { dnsapi_allow_private: true });
  const dnsapi = await call<{ id: number }>('POST', '/v1/dnsapis', {
    name: 'pdns',
    provider: 'powerdns',
    credentials: { url: relay.url, api_key: pdns.apiKey },
  });
  const domain = await call<{ id: number }>('POST', '/v1/cname-domains', {
    domain: `cdn.${ZONE}`,
    is_default: true,
    dnsapi_id: dnsapi.id,
    zone: ZONE,
  });
  // A stuck origin answers 504 within seconds rather than nginx's minute.
  const nginxSettings = await call<Record<string, unknown>>('GET', '/v1/configs/global-0-edge-nginx');
  await call('PUT', '/v1/configs/global-0-edge-nginx', { ...nginxSettings, proxy_read_timeout: 2 });

  const ports = { http: await freePort(), https: await freePort() };
  const { install_token } = await call<{ install_token: string }>('GET', '/v1/nodes/install-token');
  const edges: EdgeAgent[] = [];
  for (const ip of ['127.0.0.2', '127.0.0.3']) {
    const dataDir = await mkdtemp(join(tmpdir(), 'rampart-faults-edge-'));
    const edge = new EdgeAgent(ip, dataDir, [
      ...['--master', master.url, '--token', install_token, '--data-dir', dataDir],
      ...['--control-port', String(await freePort()), '--listen-address', ip],
      ...['--poll-wait', '2', '--metrics-interval', '1', '--nginx', NGINX_BINARY],
    ]);
    edges.push(edge);
    cleanups.push(() => edge.close());
    edge.start();
  }
  // Each agent registers with the address it listens on: that is how the two are told apart.
  for (const edge of edges) {
    const pending = await eventually(async () => {
      const { list } = await call<{ list: { id: number; ips: string[] }[] }>('GET', '/v1/pending-nodes');
      const found = list.find((entry) => entry.ips[0] === edge.ip);
      if (!found) throw new Error(`${edge.ip} has not registered`);
      return found;
    }, 30_000);
    await call('POST', '/v1/nodes', {
      pending_id: pending.id,
      name: `edge-${edge.ip}`,
      ips: [edge.ip],
      http_port: ports.http,
      https_port: ports.https,
    });
  }
  const lines = await call<{ list: { id: number; code: string }[] }>('GET', '/v1/lines');
  const line = lines.list.find((entry) => entry.code === 'default')?.id ?? 0;
  await call('POST', '/v1/node-groups', {
    name: 'main',
    cname_domain_id: domain.id,
    host: 'lg',
    records: edges.map((edge) => ({ line_id: line, ip: edge.ip })),
  });
  await call('PUT', '/v1/configs/global-0-node-monitor', monitor);
  const site = await call<{ id: number }>('POST', '/v1/sites', {
    domains: [SITE],
    origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
  });

  const resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([pdns.dnsAddress]);
  const fleet = {
    master,
    pdns,
    relay,
    origin,
    edges,
    ports,
    site,
    call,
    /** The A records PowerDNS answers for the line group's name. */
    dns: async () => {
      try {
        return (await resolver.resolve4(FQDN)).sort();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
        throw error;
      }
    },
    /** The status one edge answers for a host (0: no answer). */
    status: async (edge: EdgeAgent, host: string, path = '/') => {
      try {
        return (await edgeRequest(ports.http, { host, path, address: edge.ip })).status;
      } catch {
        return 0;
      }
    },
    nodes: async () => (await call<{ list: NodeRow[] }>('GET', '/v1/nodes')).list,
    nodeOf: async (edge: EdgeAgent) => {
      const node = (await fleet.nodes()).find((row) => row.ips.includes(edge.ip));
      if (!node) throw new Error(`no node for ${edge.ip}`);
      return node;
    },
    close: async () => {
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    },
  };
  return fleet;
}

export type Fleet = Awaited<ReturnType<typeof setUp>>;
