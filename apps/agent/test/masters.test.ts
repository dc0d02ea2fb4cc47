import { rm } from 'node:fs/promises';
import type { EdgeSnapshot } from '@rampart/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.ts';
import { silentLogger } from '../src/logger.ts';
import type { AgentOptions } from '../src/options.ts';
import { savedMasters } from '../src/sync/master-list.ts';
import { makeSite, makeSnapshot } from '../src/testing/snapshots.ts';
import { testAgentOptions } from './support/agent.ts';
import { type FakeMaster, startFakeMaster } from './support/fake-master.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

/** How soon an agent must be with the next master once its master is gone. */
const FAILOVER_MS = 5000;

describe('an agent with several masters', () => {
  let origin: Origin;
  let ports: { http: number; https: number };
  const masters: FakeMaster[] = [];
  const agents: Agent[] = [];
  let dataDir = '';

  const snapshot = (version: number, extra: Partial<EdgeSnapshot> = {}): EdgeSnapshot => ({
    ...makeSnapshot({
      version,
      node: { id: 7, http_port: ports.http, https_port: ports.https },
      sites: [
        makeSite({
          id: 1,
          domains: ['several.test'],
          origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        }),
      ],
    }),
    ...extra,
  });
  const startMaster = async () => {
    const master = await startFakeMaster();
    master.accept = true;
    masters.push(master);
    return master;
  };
  const startAgent = async (options: AgentOptions) => {
    const agent = new Agent(options, silentLogger);
    agents.push(agent);
    await agent.start();
    return agent;
  };
  const uris = (master: FakeMaster) => [...master.batches.values()].flatMap((batch) => batch.access.map((l) => l.uri));

  beforeAll(async () => {
    origin = await startOrigin('origin');
    ports = { http: await freePort(), https: await freePort() };
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) {
      await agent.stop();
      await agent.nginx.stop(2000);
    }
    for (const master of masters.splice(0)) await master.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await origin?.close();
  });

  it('goes on to the next master when its master dies, and ships its logs there, each line once', async () => {
    const [a, b] = [await startMaster(), await startMaster()];
    // The masters share one database: the same config version on each.
    for (const master of [a, b]) master.setSnapshot(snapshot(1));
    const options = await testAgentOptions(a.url, { masters: [a.url, b.url] });
    dataDir = options.dataDir;
    await startAgent(options);
    await eventually(async () => expect(a.statuses.at(-1)).toMatchObject({ applied_version: 1, last_error: '' }));
    await edgeRequest(ports.http, { host: 'several.test', path: '/before' });
    await eventually(async () => expect(uris(a)).toContain('/before'));

    const polls = b.configPolls;
    await a.close();
    await eventually(async () => expect(b.configPolls).toBeGreaterThan(polls), FAILOVER_MS, 20);
    await eventually(async () => expect(b.statuses.at(-1)).toMatchObject({ applied_version: 1 }));
    await edgeRequest(ports.http, { host: 'several.test', path: '/after' });
    await eventually(async () => expect(uris(b)).toContain('/after'));
    expect(uris(a).filter((uri) => uri === '/after')).toEqual([]);
    expect([...uris(a), ...uris(b)].filter((uri) => uri === '/before')).toEqual(['/before']);
  });

  it('follows the list of masters its config names, also after a restart with --master naming a dead one', async () => {
    const [a, b, c] = [await startMaster(), await startMaster(), await startMaster()];
    a.setSnapshot(snapshot(1));
    const options = await testAgentOptions(a.url);
    dataDir = options.dataDir;
    const agent = await startAgent(options);
    await eventually(async () => expect(a.statuses.at(-1)).toMatchObject({ applied_version: 1 }));

    const named = { masters: [b.url, c.url] };
    for (const master of [a, b, c]) master.setSnapshot(snapshot(2, named));
    await eventually(async () => expect(await savedMasters(options.dataDir)).toEqual([b.url, c.url]));
    // The master in use is not on the new list: the agent goes to the list's first.
    await eventually(async () => expect(b.configPolls).toBeGreaterThan(0));
    await eventually(async () => expect(b.statuses.at(-1)).toMatchObject({ applied_version: 2 }));

    // Restarted with --master naming only a master that is gone: it follows the kept list.
    await agent.stop();
    agents.splice(0);
    await a.close();
    await b.close();
    const polls = c.configPolls;
    await startAgent(options);
    await eventually(async () => expect(c.configPolls).toBeGreaterThan(polls));
    await eventually(async () => expect(c.statuses.at(-1)).toMatchObject({ applied_version: 2 }));
  });
});
