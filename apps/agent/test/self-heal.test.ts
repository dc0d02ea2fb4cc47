import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.ts';
import { silentLogger } from '../src/logger.ts';
import { makeSite, makeSnapshot } from '../src/testing/snapshots.ts';
import { testAgentOptions } from './support/agent.ts';
import { type FakeMaster, startFakeMaster } from './support/fake-master.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

/** An edge whose nginx master dies or whose newest config fails comes back on its own. */
describe('an edge that heals itself', () => {
  let origin: Origin;
  let master: FakeMaster;
  let agent: Agent | null = null;
  let dataDir = '';
  let ports: { http: number; https: number };

  const site = (id: number, domain: string) =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
    });
  const snapshot = (version: number, domains: string[], httpPort = ports.http) =>
    makeSnapshot({
      version,
      node: { id: 7, http_port: httpPort, https_port: ports.https },
      sites: domains.map((domain, index) => site(index + 1, domain)),
    });
  const status = async (host: string, port = ports.http) => {
    try {
      return (await edgeRequest(port, { host })).status;
    } catch {
      return 0;
    }
  };
  const lastStatus = () => master.statuses.at(-1);

  beforeAll(async () => {
    origin = await startOrigin('origin');
  });
  afterEach(async () => {
    await agent?.stop();
    await agent?.nginx.stop(2000);
    await agent?.nginx.stopOrphans();
    agent = null;
    await master?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await origin?.close();
  });

  const startWith = async (first: ReturnType<typeof snapshot>) => {
    master = await startFakeMaster();
    master.accept = true;
    master.setSnapshot(first);
    const options = await testAgentOptions(master.url, { workerProcesses: 2 });
    dataDir = options.dataDir;
    agent = new Agent(options, silentLogger);
    await agent.start();
    await eventually(async () => expect(await status('one.test')).toBe(200));
    return agent;
  };

  it('stops the workers a killed nginx master left, starts nginx again and then applies the newest config', async () => {
    ports = { http: await freePort(), https: await freePort() };
    const edge = await startWith(snapshot(1, ['one.test']));
    const killed = await edge.nginx.pid();
    expect(killed).not.toBeNull();
    await eventually(async () => expect(await edge.nginx.workers()).toHaveLength(2));
    process.kill(killed as number, 'SIGKILL');

    // The orphaned workers still serve the old config meanwhile; the newest one arrives now.
    master.setSnapshot(snapshot(2, ['one.test', 'two.test']));
    await eventually(async () => expect(await status('two.test')).toBe(200), 30_000);
    expect(await status('one.test')).toBe(200);
    const revived = await edge.nginx.pid();
    expect(revived).not.toBeNull();
    expect(revived).not.toBe(killed);
    expect(await edge.nginx.orphans()).toEqual([]);
    await eventually(async () => {
      expect(lastStatus()?.applied_version).toBe(2);
      expect(lastStatus()?.last_error).toMatch(/nginx.s master was gone .* stopped the \d+ processes it left/);
    });
  });

  it('brings nginx back on the last proven config when its master is killed and nothing changes', async () => {
    ports = { http: await freePort(), https: await freePort() };
    const edge = await startWith(snapshot(1, ['one.test']));
    const killed = await edge.nginx.pid();
    process.kill(killed as number, 'SIGKILL');
    await eventually(async () => {
      const pid = await edge.nginx.pid();
      expect(pid).not.toBeNull();
      expect(pid).not.toBe(killed);
      expect(await edge.nginx.orphans()).toEqual([]);
    }, 30_000);
    expect(await status('one.test')).toBe(200);
    await eventually(async () =>
      expect(lastStatus()?.last_error).toMatch(/nginx was not running at .*; restarted with config version 1/),
    );
  });

  it('tries a config that was rolled back again until it is live', async () => {
    ports = { http: await freePort(), https: await freePort() };
    const edge = await startWith(snapshot(1, ['one.test']));
    // Version 2 moves the sites to a port another program holds: the reload fails and is rolled back.
    const moved = await freePort();
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(moved, '127.0.0.1', resolve));
    try {
      master.setSnapshot(snapshot(2, ['one.test'], moved));
      await eventually(async () => {
        expect(lastStatus()?.last_error).toMatch(/version 2 did not go live/);
        expect(lastStatus()?.applied_version).toBe(1);
      }, 60_000);
      expect(await status('one.test')).toBe(200);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
    // Nothing new comes from the master: the agent tries version 2 again on its own.
    await eventually(async () => expect(await status('one.test', moved)).toBe(200), 60_000);
    await eventually(async () => {
      expect(lastStatus()?.applied_version).toBe(2);
      expect(lastStatus()?.last_error).toBe('');
    });
    expect(await edge.nginx.pid()).not.toBeNull();
  });
});
