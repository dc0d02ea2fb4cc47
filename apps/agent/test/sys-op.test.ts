import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCheck, AgentUpgradeLog } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../src/agent.ts';
import { silentLogger } from '../src/logger.ts';
import { testAgentOptions } from './support/agent.ts';
import { eventually } from './support/http.ts';
import { acceptFirstPendingNode, adminToken, api, MasterProcess } from './support/master-process.ts';
import { freePort } from './support/ports.ts';

/** /sys/op with no stand-ins: the master from source, an agent and Debian's nginx. */
describe('/sys/op commands reach a real agent', () => {
  let master: MasterProcess;
  let admin: string;
  let agent: Agent;
  let agentDir = '';

  beforeAll(async () => {
    master = new MasterProcess(await freePort(), await mkdtemp(join(tmpdir(), 'rampart-sysop-master-')));
    await master.start();
    admin = await adminToken(master);
    const { install_token } = await api<{ install_token: string }>(master, 'GET', '/v1/nodes/install-token', admin);
    const options = await testAgentOptions(master.url, { token: install_token });
    agentDir = options.dataDir;
    agent = new Agent(options, silentLogger);
    await agent.start();
    await acceptFirstPendingNode(master, admin, { http_port: await freePort(), https_port: await freePort() });
    await eventually(async () => {
      const { list } = await api<{ list: { applied_version: number }[] }>(master, 'GET', '/v1/nodes', admin);
      expect(list[0]?.applied_version).toBeGreaterThan(0);
    }, 20_000);
  });

  afterAll(async () => {
    // The master first: an agent in this process that stopped first leaves its aborted command poll's
    // socket open, and the master's close then waits out the keep-alive timeout (70 s).
    await master?.stop();
    await agent?.stop();
    await agent?.nginx.stop(2000);
    for (const dir of [agentDir, master?.dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers the self-test: nginx config tested and running, the config version applied, the clock', async () => {
    const check = await api<AgentCheck>(master, 'POST', '/v1/maintain/agent-check', admin, { wait: 30 });
    expect(check.nodes).toHaveLength(1);
    const [node] = check.nodes;
    expect(node).toMatchObject({ state: 'done', nginx_config_ok: true, nginx_running: true, agent_version: '0.1.0' });
    expect(node?.applied_version).toBe(node?.expected_version);
    expect(Math.abs(node?.clock_skew_ms ?? Number.POSITIVE_INFINITY)).toBeLessThan(2000);
    expect(node?.disk_total_bytes).toBeGreaterThan(0);
  });

  it('downloads a release it is sent, and refuses to replace an agent that is not an installed one', async () => {
    const release = await api<{ id: number }>(master, 'POST', '/v1/agent/upgrades/releases/built-in', admin, {
      version: '9.9.9',
    });
    const started = await api<AgentUpgradeLog>(master, 'POST', '/v1/agent/upgrades', admin, {
      release_id: release.id,
      max_failures: 1,
    });
    const log = await eventually(async () => {
      const current = await api<AgentUpgradeLog>(master, 'GET', `/v1/agent/upgrades/log/${started.upgrade.id}`, admin);
      if (current.upgrade.state === 'running') throw new Error('still running');
      return current;
    }, 60_000);
    expect(log.upgrade.state).toBe('done');
    expect(log.nodes[0]?.state).toBe('failed');
    expect(log.nodes[0]?.log).toMatch(/is not an installed agent \(no node\/bin\/node\): upgrade it by hand$/);
  });
});
