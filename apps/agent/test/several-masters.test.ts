import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Site } from '@rampart/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentCommandLine, agentNginx } from './support/agent.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { MasterBalancer } from './support/load-balancer.ts';
import { MASTER_ADMIN_PASSWORD, MasterProcess } from './support/master-process.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');
const PG_URL = process.env.RAMPART_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// Config polls are held for 30 s (the default): a change served well before that on the edge
// whose master did not make it was woken through the other master, not by its poll's end.
const POLL_WAIT_SECONDS = 30;
const CHANGE_SERVED_MS = 20_000;

interface Envelope<T> {
  code: number | string;
  msg: string;
  data: T;
}

async function call<T>(base: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token && { 'access-token': token }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return (await response.json()) as Envelope<T>;
}

async function must<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<T> {
  const answer = await call<T>(base, method, path, token, body);
  if (answer.code !== 0) throw new Error(`${method} ${path}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

/** One edge: an agent process that knows both masters (in its own order) and its nginx. */
class Edge {
  readonly dataDir: string;
  readonly httpPort: number;
  private readonly args: string[];
  private child: ChildProcess | null = null;

  constructor(dataDir: string, httpPort: number, args: string[]) {
    this.dataDir = dataDir;
    this.httpPort = httpPort;
    this.args = args;
  }

  start() {
    const child = spawn(process.execPath, [MAIN, ...this.args], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.resume();
    this.child = child;
  }

  async servedBy(path = '/'): Promise<string> {
    const answer = await edgeRequest(this.httpPort, { host: 'several.example.com', path });
    if (answer.status !== 200) throw new Error(`status ${answer.status}`);
    return (JSON.parse(answer.body) as { origin: string }).origin;
  }

  async close() {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await agentNginx(this.dataDir).stop(2000);
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * Two masters from source on one PostgreSQL database behind a real nginx load balancer, and two
 * edges, each started on a different master: what one master does reaches the edges of the other,
 * and killing a master with -9 loses nothing.
 */
describe('two masters on one PostgreSQL', () => {
  const database = `rampart_several_${process.pid}_${Date.now()}`;
  const databaseUrl = PG_URL.replace(/\/[^/]*$/, `/${database}`);
  const dirs: string[] = [];
  let first: MasterProcess;
  let second: MasterProcess;
  let balancer: MasterBalancer;
  let edges: Edge[] = [];
  let origins: Origin[] = [];
  let admin = '';
  let site: Site;

  const withServer = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const inDatabase = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const tempDir = async (prefix: string) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const nodes = () =>
    must<{ list: { id: number; status: string; applied_version: number }[] }>(balancer.url, 'GET', '/v1/nodes', admin);
  const configVersion = () =>
    inDatabase(async (client) => Number((await client.query('select version from config_state')).rows[0].version));

  beforeAll(async () => {
    await withServer((client) => client.query(`create database ${database}`));
    const env = { RAMPART_DATABASE_URL: databaseUrl, RAMPART_SECRET_KEY: randomBytes(32).toString('base64') };
    first = new MasterProcess(await freePort(), await tempDir('rampart-several-a-'), env);
    second = new MasterProcess(await freePort(), await tempDir('rampart-several-b-'), env);
    // Both at once, on an empty database: one migrates and makes the admin, the other waits.
    await Promise.all([first.start(), second.start()]);
    balancer = new MasterBalancer(await tempDir('rampart-balancer-'), await freePort(), [first.port, second.port]);
    await balancer.start();
    admin = (
      await must<{ access_token: string }>(balancer.url, 'POST', '/v1/login', undefined, {
        account: 'admin',
        password: MASTER_ADMIN_PASSWORD,
      })
    ).access_token;
    origins = [await startOrigin('first'), await startOrigin('second')];
    const { install_token } = await must<{ install_token: string }>(
      balancer.url,
      'GET',
      '/v1/nodes/install-token',
      admin,
    );
    // The first edge starts on the first master, the second on the second; each fails over to the other.
    for (const order of [
      [first, second],
      [second, first],
    ] as const) {
      const dataDir = await mkdtemp(join(tmpdir(), 'rampart-several-edge-'));
      const edge = new Edge(dataDir, await freePort(), [
        ...agentCommandLine({
          master: order.map((master) => master.url).join(','),
          token: install_token,
          dataDir,
          controlPort: await freePort(),
        }),
        '--poll-wait',
        String(POLL_WAIT_SECONDS),
        '--metrics-interval',
        '1',
      ]);
      edges.push(edge);
      edge.start();
      const pending = await eventually(async () => {
        const { list } = await must<{ list: { id: number }[] }>(balancer.url, 'GET', '/v1/pending-nodes', admin);
        if (!list[0]) throw new Error('not registered yet');
        return list[0];
      }, 20_000);
      await must(balancer.url, 'POST', '/v1/nodes', admin, {
        pending_id: pending.id,
        http_port: edge.httpPort,
        https_port: await freePort(),
      });
    }
    await eventually(async () => {
      const { list } = await nodes();
      expect(list).toHaveLength(2);
      for (const node of list) expect(node.applied_version).toBeGreaterThan(0);
    }, 30_000);
    site = await must<Site>(balancer.url, 'POST', '/v1/sites', admin, {
      domains: ['several.example.com'],
      origins: [{ address: '127.0.0.1', port: (origins[0] as Origin).port, weight: 1, backup: false }],
    });
    for (const edge of edges) await eventually(async () => expect(await edge.servedBy()).toBe('first'), 30_000, 50);
  }, 180_000);

  afterAll(async () => {
    for (const edge of edges) await edge.close();
    edges = [];
    await balancer?.stop();
    await first?.stop();
    await second?.stop();
    for (const origin of origins) await origin.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    await withServer((client) => client.query(`drop database if exists ${database} with (force)`));
  });

  const useOrigin = (via: MasterProcess | MasterBalancer, index: number) =>
    must(via.url, 'PUT', `/v1/sites/${site.id}`, admin, {
      origins: [{ address: '127.0.0.1', port: (origins[index] as Origin).port, weight: 1, backup: false }],
    });

  it('serves a change made through either master on both edges, long before their polls end', async () => {
    await useOrigin(first, 1);
    for (const edge of edges) {
      await eventually(async () => expect(await edge.servedBy()).toBe('second'), CHANGE_SERVED_MS, 50);
    }
    await useOrigin(second, 0);
    for (const edge of edges) {
      await eventually(async () => expect(await edge.servedBy()).toBe('first'), CHANGE_SERVED_MS, 50);
    }
  });

  it('ends a session on every master with the logout made on one', async () => {
    const { access_token: token } = await must<{ access_token: string }>(first.url, 'POST', '/v1/login', undefined, {
      account: 'admin',
      password: MASTER_ADMIN_PASSWORD,
    });
    // Both masters have the session cached.
    expect((await call(first.url, 'GET', '/v1/user', token)).code).toBe(0);
    expect((await call(second.url, 'GET', '/v1/user', token)).code).toBe(0);
    expect((await call(first.url, 'DELETE', '/v1/common/auth', token)).code).toBe(0);
    // The very next request on the other master is refused: not after its cache ages out.
    expect((await call(second.url, 'GET', '/v1/user', token)).code).toBe('login_required');
  });

  it('loses nothing when a master is killed with -9 during changes and traffic', async () => {
    const marker = `/several-${Date.now()}`;
    const sent = new Map<string, number>();
    let traffic = true;
    // Log lines on both edges all along: each request has a path of its own.
    const trafficDone = (async () => {
      let n = 0;
      while (traffic && n < 5000) {
        for (const edge of edges) {
          const path = `${marker}/${n}`;
          // Any answer is a logged request; a refused connection is none.
          const answered = await edgeRequest(edge.httpPort, { host: 'several.example.com', path }).then(
            () => true,
            () => false,
          );
          if (answered) sent.set(path, (sent.get(path) ?? 0) + 1);
        }
        n++;
      }
    })();
    const changes = 12;
    for (let index = 1; index <= changes; index++) {
      if (index === 4) await first.kill();
      // A change whose answer was lost with the master is made again, as a person would.
      await eventually(() => useOrigin(balancer, index % 2), 20_000, 200);
      // The dashboard session goes on through the balancer.
      expect((await call(balancer.url, 'GET', '/v1/user', admin)).code).toBe(0);
    }
    const last = await configVersion();
    await eventually(async () => {
      const { list } = await nodes();
      for (const node of list) {
        expect(node.status).toBe('online');
        expect(node.applied_version).toBeGreaterThanOrEqual(last);
      }
    }, 30_000);
    for (const edge of edges) {
      await eventually(async () => expect(await edge.servedBy()).toBe(changes % 2 === 0 ? 'first' : 'second'), 5000);
    }
    traffic = false;
    await trafficDone;
    expect(sent.size).toBeGreaterThan(0);
    // Every line reaches the database once: none lost with the dead master, none stored twice.
    await eventually(
      async () => {
        const stored = await inDatabase(async (client) => {
          const { rows } = await client.query<{ uri: string; count: string }>(
            'select uri, count(*) as count from access_logs where uri like $1 group by uri',
            [`${marker}/%`],
          );
          return rows;
        });
        const lines = stored.reduce((sum, row) => sum + Number(row.count), 0);
        expect(lines).toBe([...sent.values()].reduce((sum, count) => sum + count, 0));
        expect(stored.filter((row) => Number(row.count) !== (sent.get(row.uri) ?? 0))).toEqual([]);
      },
      60_000,
      500,
    );
  });
});
