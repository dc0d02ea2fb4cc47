import { readFile, rm, stat } from 'node:fs/promises';
import { DEFAULT_EDGE_SETTINGS, type EdgeJob } from '@rampart/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.ts';
import { Nginx } from '../src/apply/nginx.ts';
import { silentLogger } from '../src/logger.ts';
import type { AgentOptions } from '../src/options.ts';
import { agentPaths } from '../src/paths.ts';
import { makeSite, makeSnapshot } from '../src/testing/snapshots.ts';
import { testAgentOptions } from './support/agent.ts';
import { type FakeMaster, startFakeMaster } from './support/fake-master.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

describe('sync with a master', () => {
  let origin: Origin;
  let master: FakeMaster | null = null;
  const agents: Agent[] = [];
  const dataDirs: string[] = [];
  let ports: { http: number; https: number };

  const snapshotWith = (version: number, sites = [site(1, 'one.test')], jobs: EdgeJob[] = []) =>
    makeSnapshot({ version, node: { id: 7, http_port: ports.http, https_port: ports.https }, sites, jobs });
  const site = (id: number, domain: string) =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      cache_rules: [{ match: 'prefix', value: '/', ttl: 60, ignore_query: false, honor_origin: false }],
    });
  const startAgent = async (options: AgentOptions) => {
    const agent = new Agent(options, silentLogger);
    agents.push(agent);
    if (!dataDirs.includes(options.dataDir)) dataDirs.push(options.dataDir);
    await agent.start();
    return agent;
  };
  const served = async (host: string) => (await edgeRequest(ports.http, { host })).status === 200;

  beforeAll(async () => {
    origin = await startOrigin('origin');
    ports = { http: await freePort(), https: await freePort() };
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) {
      await agent.stop();
      await agent.nginx.stop(2000);
    }
    await master?.close();
    master = null;
    for (const dir of dataDirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await origin?.close();
  });

  it('registers with the install token, waits for acceptance and keeps the credential 0600', async () => {
    master = await startFakeMaster();
    const options = await testAgentOptions(master.url);
    const agent = await startAgent(options);
    await eventually(async () => expect(master!.registrations).toHaveLength(1));
    expect(master.registrations[0]).toMatchObject({
      install_token: 'install-token-0123456789',
      agent_version: '0.1.0',
    });
    const m = master;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(m.configPolls).toBe(0);
    m.accept = true;
    await eventually(async () => expect(m.configPolls).toBeGreaterThan(0));
    const paths = agentPaths(options.dataDir);
    const state = JSON.parse(await readFile(paths.stateFile, 'utf8'));
    expect(state).toMatchObject({ node_id: 7, credential: m.credential });
    expect((await stat(paths.stateFile)).mode & 0o777).toBe(0o600);

    // A restarted agent with a credential does not register again.
    await agent.stop();
    await startAgent({ ...options, token: null });
    const polls = m.configPolls;
    await eventually(async () => expect(m.configPolls).toBeGreaterThan(polls));
    expect(m.registrations).toHaveLength(1);
  });

  it('applies snapshots from the long poll, reports status, runs jobs once', async () => {
    master = await startFakeMaster();
    master.accept = true;
    const m = master;
    const options = await testAgentOptions(m.url);
    m.setSnapshot(snapshotWith(1));
    await startAgent(options);
    await eventually(async () => expect(m.statuses.at(-1)).toMatchObject({ applied_version: 1, last_error: '' }));
    expect(await served('one.test')).toBe(true);

    // A new version reaches the agent through its poll (the master's hold is tested beside the route).
    const broken = makeSite({
      id: 3,
      domains: ['broken.test'],
      origins: [{ address: 'nowhere.invalid', port: 80, weight: 1, backup: false }],
    });
    m.setSnapshot(snapshotWith(2, [site(1, 'one.test'), site(2, 'two.test'), broken]));
    await eventually(async () => expect(await served('two.test')).toBe(true), 20_000, 20);
    await eventually(async () => expect(m.statuses.at(-1)?.applied_version).toBe(2));
    expect(m.statuses.at(-1)?.apply_errors).toEqual([
      { kind: 'site', id: 3, error: expect.stringContaining('does not resolve') },
    ]);

    // Jobs: run, reported, not run again after a restart.
    await edgeRequest(ports.http, { host: 'one.test', path: '/cached' });
    const job = { id: 41, type: 'purge-url' as const, site_id: 1, urls: ['http://one.test/cached'] };
    m.setSnapshot(snapshotWith(3, [site(1, 'one.test'), site(2, 'two.test')], [job]));
    await eventually(async () => expect(m.jobResults).toEqual([{ id: 41, state: 'done', error: '' }]));
    // The agent forgets a result once the master's answer reaches it, a moment after the master has
    // recorded it; an agent stopped in between sends it again after the restart (at least once, by
    // design, and the master's record is idempotent). Wait for that before stopping it.
    const stateFile = agentPaths(options.dataDir).stateFile;
    await eventually(async () =>
      expect((JSON.parse(await readFile(stateFile, 'utf8')) as { unsent_results: unknown[] }).unsent_results).toEqual(
        [],
      ),
    );
    await agents[0]!.stop();
    agents.length = 0;
    m.setSnapshot(snapshotWith(4, [site(1, 'one.test'), site(2, 'two.test')], [job]));
    await startAgent(options);
    await eventually(async () => expect(m.statuses.at(-1)?.applied_version).toBe(4));
    expect(m.jobResults).toHaveLength(1);
  });

  it("caps the log spool with the live snapshot's log_spool_mb, without restarting the shipper", async () => {
    master = await startFakeMaster();
    master.accept = true;
    const m = master;
    const options = await testAgentOptions(m.url);
    m.setSnapshot(snapshotWith(1));
    const agent = await startAgent(options);
    const spool = agent.shipper.spool;
    await eventually(async () => expect(m.statuses.at(-1)).toMatchObject({ applied_version: 1, last_error: '' }));
    expect(spool.maxBytes).toBe(options.spoolMaxBytes);

    const withSpool = (version: number, mb: number) => ({
      ...snapshotWith(version),
      edge_settings: {
        ...DEFAULT_EDGE_SETTINGS,
        nginx: { ...DEFAULT_EDGE_SETTINGS.nginx, worker_processes: 1 },
        res: { ...DEFAULT_EDGE_SETTINGS.res, max_open_files: 1024, log_spool_mb: mb },
      },
    });
    m.setSnapshot(withSpool(2, 3));
    await eventually(async () => expect(m.statuses.at(-1)).toMatchObject({ applied_version: 2, last_error: '' }));
    expect(spool.maxBytes).toBe(3 * 1024 * 1024);
    m.setSnapshot(withSpool(3, 700));
    await eventually(async () => expect(m.statuses.at(-1)).toMatchObject({ applied_version: 3, last_error: '' }));
    expect(spool.maxBytes).toBe(700 * 1024 * 1024);
    expect(agent.shipper.spool).toBe(spool);

    // The master sends an unchanged config again only on a change: a restarted agent keeps the cap.
    const { stateFile } = agentPaths(options.dataDir);
    await eventually(async () =>
      expect(JSON.parse(await readFile(stateFile, 'utf8'))).toMatchObject({ spool_max_bytes: 700 * 1024 * 1024 }),
    );
    await agent.stop();
    agents.length = 0;
    const restarted = await startAgent(options);
    expect(restarted.shipper.spool.maxBytes).toBe(700 * 1024 * 1024);
  });

  it('keeps serving while the master is down, and a restarted agent serves the last proven config at once', async () => {
    master = await startFakeMaster();
    master.accept = true;
    const m = master;
    const masterPort = Number(new URL(m.url).port);
    const options = await testAgentOptions(m.url);
    m.setSnapshot(snapshotWith(5));
    const first = await startAgent(options);
    await eventually(async () => expect(m.statuses.at(-1)?.applied_version).toBe(5));
    await m.close();
    master = null;
    expect(await served('one.test')).toBe(true);

    // Agent and nginx both go away (a node reboot); the master is still down.
    await first.stop();
    agents.length = 0;
    await new Nginx({
      binary: options.nginxBinary,
      prefix: agentPaths(options.dataDir).nginxDir,
      errorLog: '/dev/null',
      pidFile: agentPaths(options.dataDir).pidFile,
    }).stop(2000);
    await expect(edgeRequest(ports.http, { host: 'one.test' })).rejects.toThrow();
    await startAgent(options);
    expect(await served('one.test')).toBe(true);

    // The master comes back on the same address: the agent picks up the next version.
    master = await startFakeMaster({ port: masterPort });
    master.accept = true;
    master.setSnapshot(snapshotWith(6, [site(1, 'one.test'), site(2, 'two.test')]));
    await eventually(async () => expect(await served('two.test')).toBe(true), 40_000, 200);
  });

  it('stops (leaving nginx alone) when an admin rejects the node', async () => {
    master = await startFakeMaster();
    master.reject = true;
    const agent = await startAgent(await testAgentOptions(master.url));
    await agent.finished;
  });
});
