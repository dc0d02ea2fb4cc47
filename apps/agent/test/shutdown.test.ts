import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Site } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../master/src/db/database.ts';
import { agentPaths } from '../src/paths.ts';
import { agentCommandLine, agentNginx } from './support/agent.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { acceptFirstPendingNode, adminToken, api, MasterProcess, terminate } from './support/master-process.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const MAIN = join(import.meta.dirname, '../src/main.ts');
// A held config poll lasts 30 s: a process that is still there after half of that waited for it.
// The deadline is generous for a busy machine; the 2 s figure is not asserted here.
const EXIT_WITHIN_MS = 15_000;

/** SIGTERM to the master and to the agent: both go at once, and nothing the edge logged or the admin changed is lost. */
describe('stopping the master and the agent', () => {
  let master: MasterProcess;
  let admin: string;
  let agent: ChildProcess | null = null;
  let agentArgs: string[] = [];
  let agentDir = '';
  let origins: Origin[] = [];
  let httpPort = 0;
  let site: Site;

  const startAgent = () => {
    const child = spawn(process.execPath, [MAIN, ...agentArgs], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.resume();
    agent = child;
    return child;
  };
  const nginx = () => {
    return agentNginx(agentDir);
  };
  const get = (path: string) => edgeRequest(httpPort, { host: 'stop.example.com', path });
  const servedBy = async (path = '/') => {
    const answer = await get(path);
    if (answer.status !== 200) throw new Error(`status ${answer.status}`);
    return (JSON.parse(answer.body) as { origin: string }).origin;
  };
  /** Waits until the node reported a site's config: its next config poll is then held open by the master. */
  const heldPoll = async (siteId: number) => {
    const { version } = await api<{ version: number }>(master, 'GET', `/v1/sites/${siteId}/apply-status`, admin);
    await eventually(async () => {
      const { list } = await api<{ list: { applied_version: number }[] }>(master, 'GET', '/v1/nodes', admin);
      expect(list[0]?.applied_version).toBeGreaterThanOrEqual(version);
    }, 60_000);
  };

  beforeAll(async () => {
    master = new MasterProcess(await freePort(), await mkdtemp(join(tmpdir(), 'rampart-stop-master-')));
    await master.start();
    admin = await adminToken(master);
    origins = [await startOrigin('first'), await startOrigin('second')];
    httpPort = await freePort();
    agentDir = await mkdtemp(join(tmpdir(), 'rampart-stop-agent-'));
    const { install_token } = await api<{ install_token: string }>(master, 'GET', '/v1/nodes/install-token', admin);
    // The default 30 s long poll, as in production: that is the wait a stop must not sit out.
    agentArgs = agentCommandLine({
      master: master.url,
      token: install_token,
      dataDir: agentDir,
      controlPort: await freePort(),
    });
    startAgent();
    await acceptFirstPendingNode(master, admin, { http_port: httpPort, https_port: await freePort() }, 30_000);
    site = await api<Site>(master, 'POST', '/v1/sites', admin, {
      domains: ['stop.example.com'],
      origins: [{ address: '127.0.0.1', port: (origins[0] as Origin).port, weight: 1, backup: false }],
    });
    await eventually(async () => expect(await servedBy()).toBe('first'), 30_000, 100);
  });

  afterAll(async () => {
    if (agent) await terminate(agent, 30_000);
    if (agentDir) await nginx().stop(2000);
    await master?.stop();
    for (const origin of origins) await origin.close();
    for (const dir of [agentDir, master?.dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exits at once on SIGTERM with the agent’s config poll open, and loses no log line nor config change', async () => {
    const logs = openDatabase({ dataDir: master.dataDir });
    const stored = async () => {
      const row = await logs.logs
        .selectFrom('access_logs')
        .select((eb) => [eb.fn.countAll().as('rows'), eb.fn.count('uri').distinct().as('uris')])
        .where('uri', 'like', '/n/%')
        .executeTakeFirstOrThrow();
      return { rows: Number(row.rows), uris: Number(row.uris) };
    };
    try {
      await heldPoll(site.id);
      for (let i = 0; i < 50; i++) await get(`/n/a${i}`);
      expect(await master.terminate(EXIT_WITHIN_MS)).toBe(true);

      await master.start();
      // A change made after the restart reaches the agent once it is back on its long poll.
      const probe = await api<Site>(master, 'POST', '/v1/sites', admin, {
        domains: ['probe.example.com'],
        origins: [{ address: '127.0.0.1', port: (origins[0] as Origin).port, weight: 1, backup: false }],
      });
      await heldPoll(probe.id);
      for (let i = 0; i < 50; i++) await get(`/n/b${i}`);
      // A change the admin makes just before the stop still reaches the edge: the poll it woke is answered.
      await api(master, 'PUT', `/v1/sites/${site.id}`, admin, {
        origins: [{ address: '127.0.0.1', port: (origins[1] as Origin).port, weight: 1, backup: false }],
      });
      expect(await master.terminate(EXIT_WITHIN_MS)).toBe(true);
      await eventually(async () => expect(await servedBy()).toBe('second'), 30_000, 100);
      for (let i = 0; i < 50; i++) await get(`/n/c${i}`);

      // The agent stops at once too (its spool checkpoint written); nginx goes on serving without it.
      const stopping = agent as ChildProcess;
      agent = null;
      expect(await terminate(stopping, EXIT_WITHIN_MS)).toBe(true);
      expect(stopping.exitCode).toBe(0);
      for (let i = 0; i < 50; i++) expect((await get(`/n/d${i}`)).status).toBe(200);

      await master.start();
      startAgent();
      await eventually(async () => expect((await stored()).rows).toBe(200), 60_000, 200);
      // Once the spool is empty nothing more is on its way: every line is there exactly once.
      await eventually(async () => {
        const batches = (await readdir(agentPaths(agentDir).spoolDir)).filter((name) => name.endsWith('.json'));
        expect(batches).toEqual([]);
      }, 30_000);
      expect(await stored()).toEqual({ rows: 200, uris: 200 });
    } finally {
      await logs.close();
    }
  });
});
