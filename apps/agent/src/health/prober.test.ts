import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NodeIpStateEntry } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../../../master/src/modules/auth/tokens.ts';
import { NODE_MONITOR } from '../../../master/src/modules/health/monitor-settings.ts';
import { readConfig, writeConfig } from '../../../master/src/modules/settings/configs.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../../master/src/test/test-app.ts';
import { silentLogger } from '../logger.ts';
import { MasterClient } from '../sync/master-client.ts';
import { HealthProber } from './prober.ts';

const WAIT = { timeout: 15_000, interval: 50 };
const CREDENTIAL = 'edge-a-credential-0123456789';

describe('an agent probing the other nodes for the master', () => {
  let test: TestApp;
  let admin: string;
  let other: Server | undefined;
  const abort = new AbortController();
  let running: Promise<void> | undefined;

  const addNode = async (name: string, ip: string, port: number, credential: string) => {
    const now = Date.now();
    await test.database.db
      .insertInto('nodes')
      .values({
        name,
        ips: JSON.stringify([ip]),
        group_id: null,
        region_id: null,
        enabled: 1,
        http_port: port,
        https_port: 443,
        max_cache_size_mb: 1024,
        credential_hash: hashToken(credential),
        applied_version: 0,
        last_seen_at: now,
        last_error: '',
        dropped_log_lines: 0,
        agent_version: 'test',
        created_at: now,
        updated_at: now,
      })
      .execute();
  };
  const nodeVote = async (ip: string) => {
    const result = await test.call('GET', '/v1/monitor/node/ip-state', { token: admin });
    const list = (result.body.data as { list: NodeIpStateEntry[] }).list;
    return list.find((entry) => entry.ip === ip)?.votes.find((vote) => vote.probe.startsWith('node:'));
  };

  beforeEach(async () => {
    test = await startTestApp({ dialect: 'sqlite' }, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    const settings = {
      probe: 'http',
      path: '/',
      interval_seconds: 0.2,
      timeout_seconds: 0.5,
      voters: 'nodes' as const,
    };
    const { value } = {
      value: (await test.call('GET', '/v1/configs/global-0-node-monitor', { token: admin })).body.data,
    };
    await writeConfig(test.database.db, NODE_MONITOR, { ...(value as object), ...settings }, Date.now());
  });
  afterEach(async () => {
    abort.abort();
    await running;
    other?.closeAllConnections();
    other?.close();
    await test.close();
  });

  it('probes the other node’s IP on its HTTP port and reports it up, then down once it stops answering', async () => {
    other = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => other?.listen(0, '127.0.0.31', resolve));
    await addNode('edge-a', '127.0.0.30', 9, CREDENTIAL);
    await addNode('edge-b', '127.0.0.31', (other.address() as AddressInfo).port, 'edge-b-credential-0123456789');
    const address = await test.app.listen({ host: '127.0.0.1', port: 0 });
    const prober = new HealthProber({
      client: new MasterClient(address),
      auth: { 'node-token': CREDENTIAL },
      log: silentLogger,
    });
    running = prober.run(abort.signal);

    await vi.waitFor(async () => {
      const vote = await nodeVote('127.0.0.31');
      expect(vote).toMatchObject({ probe: 'node:1', ok: true, detail: 'HTTP 200' });
      expect(vote?.streak).toBeGreaterThanOrEqual(2);
    }, WAIT);
    // A node never votes on its own IPs.
    expect(await nodeVote('127.0.0.30')).toBeUndefined();

    other.closeAllConnections();
    await new Promise<void>((resolve) => other?.close(() => resolve()));
    other = undefined;
    await vi.waitFor(
      async () => expect(await nodeVote('127.0.0.31')).toMatchObject({ ok: false, detail: 'ECONNREFUSED' }),
      WAIT,
    );
  });
  it('reads its plan again when the master sends a config, rather than at its next periodic read', async () => {
    other = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => other?.listen(0, '127.0.0.33', resolve));
    await addNode('edge-a', '127.0.0.32', 9, CREDENTIAL);
    await addNode('edge-b', '127.0.0.33', (other.address() as AddressInfo).port, 'edge-b-credential-0123456789');
    const { value } = await readConfig(test.database.db, NODE_MONITOR);
    await writeConfig(test.database.db, NODE_MONITOR, { ...value, voters: 'master' }, Date.now());
    const address = await test.app.listen({ host: '127.0.0.1', port: 0 });
    const client = new MasterClient(address);
    let plans = 0;
    const call = client.call.bind(client);
    client.call = ((request, schema) => {
      if (request.path === '/agent/v1/health/targets') plans++;
      return call(request, schema);
    }) as typeof client.call;
    const prober = new HealthProber({ client, auth: { 'node-token': CREDENTIAL }, log: silentLogger });
    const stop = new AbortController();
    running = prober.run(stop.signal);
    try {
      // The master votes alone: the agent has nothing to probe and waits.
      await vi.waitFor(() => expect(plans).toBe(1), WAIT);
      await writeConfig(test.database.db, NODE_MONITOR, { ...value, voters: 'nodes' }, Date.now());
      prober.refresh();
      // Sooner than its idle wait (10 s) would have ended: the new plan is read and followed.
      await vi.waitFor(() => expect(plans).toBe(2), { timeout: 8000, interval: 20 });
      await vi.waitFor(async () => expect(await nodeVote('127.0.0.33')).toMatchObject({ ok: true }), WAIT);
    } finally {
      stop.abort();
    }
  });
});
