import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Site } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../master/src/db/database.ts';
import { agentCommandLine, agentNginx } from './support/agent.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { acceptFirstPendingNode, adminToken, api, MasterProcess } from './support/master-process.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');
// How long a change may take to be served: generous, because a busy machine is slow; the figure
// itself (change to served, p50/p95) is measured by bench/propagation.ts, not asserted here.
const CHANGE_SERVED_MS = 20_000;

/** The whole loop with no stand-ins: the master from source, the agent process, Debian's nginx. */
describe('master → agent → nginx', () => {
  let master: MasterProcess;
  let admin: string;
  let agent: ChildProcess | null = null;
  let agentArgs: string[] = [];
  let agentDir = '';
  let origins: Origin[] = [];
  const ports = { http: 0, https: 0 };
  let site: Site;

  const startAgent = () => {
    const child = spawn(process.execPath, [MAIN, ...agentArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.resume();
    agent = child;
  };
  const stopAgent = async (signal: NodeJS.Signals) => {
    const child = agent;
    agent = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill(signal);
    await exited;
  };
  const nginx = () => {
    return agentNginx(agentDir);
  };
  const get = (host: string, path = '/') => edgeRequest(ports.http, { host, path });
  const servedBy = async (host: string, path = '/') => {
    const answer = await get(host, path);
    if (answer.status !== 200) throw new Error(`status ${answer.status} ${answer.body.slice(-300)}`);
    return (JSON.parse(answer.body) as { origin: string; host: string }).origin;
  };

  beforeAll(async () => {
    master = new MasterProcess(await freePort(), await mkdtemp(join(tmpdir(), 'rampart-loop-master-')));
    await master.start();
    admin = await adminToken(master);
    origins = [await startOrigin('first'), await startOrigin('second')];
    ports.http = await freePort();
    ports.https = await freePort();
    agentDir = await mkdtemp(join(tmpdir(), 'rampart-loop-agent-'));
    const { install_token } = await api<{ install_token: string }>(master, 'GET', '/v1/nodes/install-token', admin);
    agentArgs = agentCommandLine({
      master: master.url,
      token: install_token,
      dataDir: agentDir,
      controlPort: await freePort(),
      fast: true,
    });
    startAgent();
    await acceptFirstPendingNode(master, admin, { http_port: ports.http, https_port: ports.https });
    // The node's first config (nginx starting) is not what the 2 s promise is about.
    await eventually(async () => {
      const { list } = await api<{ list: { applied_version: number }[] }>(master, 'GET', '/v1/nodes', admin);
      expect(list[0]?.applied_version).toBeGreaterThan(0);
    }, 15_000);
  });

  afterAll(async () => {
    await stopAgent('SIGTERM');
    if (agentDir) await nginx().stop(2000);
    await master?.stop();
    for (const origin of origins) await origin.close();
    for (const dir of [agentDir, master?.dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves a site created through the API, with the site’s Host', async () => {
    const origin = origins[0] as Origin;
    site = await api<Site>(master, 'POST', '/v1/sites', admin, {
      domains: ['loop.example.com'],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      cache_rules: [{ match: 'extension', value: 'css', ttl: 600, ignore_query: false, honor_origin: false }],
    });
    await eventually(async () => expect(await servedBy('loop.example.com')).toBe('first'), CHANGE_SERVED_MS, 50);
    expect(origin.requests.at(-1)?.headers.host).toBe('loop.example.com');
  });

  it('reports the applied version and shows it per node', async () => {
    await eventually(async () => {
      const { list } = await api<{ list: { applied_version: number; status: string; last_error: string }[] }>(
        master,
        'GET',
        '/v1/nodes',
        admin,
      );
      const status = await api<{ version: number; nodes: { applied: boolean }[] }>(
        master,
        'GET',
        `/v1/sites/${site.id}/apply-status`,
        admin,
      );
      expect(list[0]).toMatchObject({ status: 'online', last_error: '' });
      expect(status.nodes).toEqual([expect.objectContaining({ applied: true })]);
    }, 10_000);
  });

  it('serves an origin change, and purges a cached URL through a job', async () => {
    await api(master, 'PUT', `/v1/sites/${site.id}`, admin, {
      origins: [{ address: '127.0.0.1', port: (origins[1] as Origin).port, weight: 1, backup: false }],
    });
    await eventually(async () => expect(await servedBy('loop.example.com')).toBe('second'), CHANGE_SERVED_MS, 50);
    const cacheStatus = async () => (await get('loop.example.com', '/app.css')).headers['x-cache-status'];
    await eventually(async () => expect(await cacheStatus()).toBe('MISS'), CHANGE_SERVED_MS);
    expect(await cacheStatus()).toBe('HIT');
    await api(master, 'POST', '/v1/jobs', admin, { type: 'purge-url', urls: ['http://loop.example.com/app.css'] });
    await eventually(async () => {
      const { list } = await api<{ list: { progress: { done: number } }[] }>(master, 'GET', '/v1/jobs', admin);
      expect(list[0]?.progress.done).toBe(1);
    }, 10_000);
    expect(await cacheStatus()).toBe('MISS');
  });

  it('a ban made through the API stops the next requests, and an unban lifts it', async () => {
    expect(await servedBy('loop.example.com')).toBe('second');
    await api(master, 'POST', '/v1/monitor/site/blackip', admin, {
      site_id: site.id,
      cidr: '127.0.0.1',
      seconds: 600,
      reason: 'full-loop test',
    });
    await eventually(async () => expect((await get('loop.example.com')).status).toBe(403), CHANGE_SERVED_MS, 20);
    // While a reload retires the old workers, both configs answer for a moment: wait until only
    // the new one does before lifting the ban.
    const steadily = async (check: () => Promise<void>) => {
      for (let i = 0; i < 5; i++) await check();
    };
    await eventually(
      () => steadily(async () => expect((await get('loop.example.com')).status).toBe(403)),
      CHANGE_SERVED_MS,
      50,
    );
    await api(master, 'DELETE', '/v1/monitor/site/blackip', admin, { site_id: site.id, ip: '127.0.0.1' });
    await eventually(async () => expect(await servedBy('loop.example.com')).toBe('second'), CHANGE_SERVED_MS, 20);
    await eventually(
      () => steadily(async () => expect(await servedBy('loop.example.com')).toBe('second')),
      CHANGE_SERVED_MS,
      50,
    );
  });

  it('keeps serving with the master stopped, and after an agent and nginx restart while it is down', async () => {
    await master.stop();
    expect(await servedBy('loop.example.com')).toBe('second');
    await stopAgent('SIGKILL');
    await nginx().stop(2000);
    await expect(get('loop.example.com')).rejects.toThrow();
    startAgent();
    await eventually(async () => expect(await servedBy('loop.example.com')).toBe('second'), 10_000, 100);
    await master.start();
  });

  it('stores exactly N log rows for N requests, across an agent kill -9 and a master restart', async () => {
    const logs = openDatabase({ dataDir: master.dataDir });
    const rows = async () =>
      Number(
        (
          await logs.logs
            .selectFrom('access_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('uri', 'like', '/n/%')
            .executeTakeFirstOrThrow()
        ).n,
      );
    try {
      for (let i = 0; i < 100; i++) await get('loop.example.com', `/n/${i}`);
      await stopAgent('SIGKILL');
      for (let i = 100; i < 200; i++) await get('loop.example.com', `/n/${i}`);
      await master.stop();
      startAgent();
      for (let i = 200; i < 300; i++) await get('loop.example.com', `/n/${i}`);
      await master.start();
      await eventually(async () => expect(await rows()).toBe(300), 30_000, 200);
      await new Promise((done) => setTimeout(done, 1500));
      expect(await rows()).toBe(300);
    } finally {
      await logs.close();
    }
  });
});
