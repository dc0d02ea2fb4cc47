import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IpSwitchEntry, NodeIpStateEntry, NodeMonitorSettings } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadSecretKey, secretBox } from '../../secrets.ts';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashToken } from '../auth/tokens.ts';
import { claimLease, releaseLease } from '../cluster/leases.ts';
import { createMessenger } from '../messages/messenger.ts';
import { createNotifier } from '../messages/notifier.ts';
import { writeConfig } from '../settings/configs.ts';
import { type IpSwitchEvent, startHealthChecker } from './checker.ts';
import { NODE_MONITOR } from './monitor-settings.ts';

const FAST: NodeMonitorSettings = {
  enabled: true,
  probe: 'http',
  path: '/health',
  expected_status: 200,
  interval_seconds: 0.2,
  timeout_seconds: 0.5,
  failures: 3,
  successes: 2,
  voters: 'master',
};
const WAIT = { timeout: 20_000, interval: 50 };

/** A node's web server on its own loopback address, stopped and started again on the same port. */
class FakeEdge {
  server: Server | undefined;
  port = 0;
  readonly ip: string;
  constructor(ip: string) {
    this.ip = ip;
  }
  async start() {
    const server = createServer((request, response) => {
      response.writeHead(request.url === '/health' ? 200 : 404).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(this.port, this.ip, resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }
  async stop() {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe.each(DIALECTS)('node health checks on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let edges: FakeEdge[];
  let stops: (() => Promise<void>)[];
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    edges = [];
    stops = [];
  });
  afterEach(async () => {
    for (const stop of stops) await stop();
    for (const edge of edges) await edge.stop();
    await test.close();
  });

  const addNode = async (name: string, ip: string, port: number) => {
    const now = Date.now();
    const row = await test.database.db
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
        credential_hash: hashToken(`${name}-credential-0123456789`),
        applied_version: 0,
        last_seen_at: now,
        last_error: '',
        dropped_log_lines: 0,
        agent_version: 'test',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  };
  const edgeNode = async (name: string, ip: string) => {
    const edge = new FakeEdge(ip);
    edges.push(edge);
    await edge.start();
    return { edge, id: await addNode(name, ip, edge.port) };
  };
  const checker = (onSwitch?: (switches: IpSwitchEvent[]) => Promise<void>) => {
    const log = test.app.log;
    const messenger = createMessenger({ db: test.database.db, log, smtpFrom: 'rampart@example.com' });
    const secrets = secretBox(loadSecretKey(test.database.dataDir, undefined));
    const notifier = createNotifier({ db: test.database.db, log, messenger, secrets });
    const started = startHealthChecker({ db: test.database.db, log, notifier, onSwitch });
    stops.push(() => started.stop());
    return started;
  };
  const states = async () => {
    const result = await test.call('GET', '/v1/monitor/node/ip-state', { token: admin });
    expect(result.body.code, result.body.msg).toBe(0);
    return (result.body.data as { list: NodeIpStateEntry[] }).list;
  };
  const stateOf = async (ip: string) => (await states()).find((entry) => entry.ip === ip);
  const switches = async (query = '') => {
    const result = await test.call('GET', `/v1/log/ip-switch?page=1&limit=50${query}`, { token: admin });
    expect(result.body.code, result.body.msg).toBe(0);
    return result.body.data as { list: IpSwitchEntry[]; total: number };
  };

  it('takes a dead node’s IP down after failures × interval, tells the admins, and brings it back', async () => {
    await writeConfig(test.database.db, NODE_MONITOR, FAST, Date.now());
    const dying = await edgeNode('edge-a', '127.0.0.2');
    const healthy = await edgeNode('edge-b', '127.0.0.3');
    const switched: IpSwitchEvent[] = [];
    checker(async (events) => {
      switched.push(...events);
    });
    await vi.waitFor(async () => {
      const entry = await stateOf('127.0.0.2');
      expect(entry?.votes[0]).toMatchObject({ probe: 'master', ok: true });
    }, WAIT);

    await dying.edge.stop();
    await vi.waitFor(async () => expect((await stateOf('127.0.0.2'))?.state).toBe('down'), WAIT);
    const down = (await switches()).list;
    expect(down).toHaveLength(1);
    expect(down[0]).toMatchObject({
      ip: '127.0.0.2',
      node_id: dying.id,
      node_name: 'edge-a',
      from: 'up',
      to: 'down',
      votes: [{ probe: 'master', ok: false, streak: 3 }],
    });
    expect(down[0]?.reason).toMatch(/^1 of 1 probes failed 3 times in a row: ECONNREFUSED$/);
    // The state is stored first; the hand-over and the admins' message follow in the same round.
    await vi.waitFor(async () => {
      expect(switched).toEqual([expect.objectContaining({ ip: '127.0.0.2', from: 'up', to: 'down', groupIds: [] })]);
      const messages = await test.database.db
        .selectFrom('messages')
        .select(['type', 'title'])
        .where('type', '=', 'node_failover')
        .execute();
      expect(messages).toEqual([{ type: 'node_failover', title: 'Node IP 127.0.0.2 is down' }]);
    }, WAIT);

    await dying.edge.start();
    await vi.waitFor(async () => expect((await stateOf('127.0.0.2'))?.state).toBe('up'), WAIT);
    const log = await switches();
    expect(log.list.map((entry) => [entry.ip, entry.from, entry.to])).toEqual([
      ['127.0.0.2', 'down', 'up'],
      ['127.0.0.2', 'up', 'down'],
    ]);
    expect(log.list[0]?.reason).toBe('1 of 1 probes succeeded 2 times in a row');
    expect((await stateOf('127.0.0.3'))?.state).toBe('up');
    expect(healthy.edge.server).toBeDefined();
    expect((await switches('&to=down&ip=127.0.0.2')).total).toBe(1);
    expect((await switches(`&node_id=${healthy.id}`)).total).toBe(0);
    expect((await switches('&start=2000-01-01T00:00:00Z&end=2000-01-02T00:00:00Z')).total).toBe(0);
  });

  it('removes nothing while the master’s probe fails and the nodes’ probes succeed', async () => {
    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, voters: 'master_and_nodes' }, Date.now());
    // The master cannot reach this node (nothing listens where it probes); the other two nodes can.
    const unreachable = await addNode('edge-far', '127.0.0.4', 9);
    await addNode('edge-b', '127.0.0.5', 9);
    await addNode('edge-c', '127.0.0.6', 9);
    const report = async (node: string) => {
      const response = await test.app.inject({
        method: 'POST',
        url: '/agent/v1/health/probes',
        headers: { 'node-token': `${node}-credential-0123456789` },
        payload: { results: [{ ip: '127.0.0.4', ok: true, detail: 'HTTP 200' }] },
      });
      expect(response.json()).toMatchObject({ code: 0, data: { accepted: 1 } });
    };
    // The nodes vouch for it before the master's first probe.
    await report('edge-b');
    await report('edge-c');
    checker();
    await vi.waitFor(async () => {
      await report('edge-b');
      await report('edge-c');
      const entry = await stateOf('127.0.0.4');
      const master = entry?.votes.find((vote) => vote.probe === 'master');
      expect(master).toMatchObject({ ok: false });
      expect(master?.streak).toBeGreaterThanOrEqual(FAST.failures + 2);
    }, WAIT);
    const entry = await stateOf('127.0.0.4');
    expect(entry?.node_id).toBe(unreachable);
    expect(entry?.state).toBe('up');
    expect(
      entry?.votes
        .filter((vote) => vote.ok)
        .map((vote) => vote.probe)
        .sort(),
    ).toEqual(['node:2', 'node:3']);
    // The other two are reached by nobody and go down; the one the nodes vouch for stays.
    expect((await switches('&ip=127.0.0.4')).total).toBe(0);

    // Once the nodes stop vouching for it (their reports go stale), the master alone decides.
    await vi.waitFor(async () => expect((await stateOf('127.0.0.4'))?.state).toBe('down'), WAIT);
  });

  it('tells each agent the other nodes’ IPs to probe, and ignores reports about its own', async () => {
    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, voters: 'nodes' }, Date.now());
    await addNode('edge-a', '127.0.0.7', 8081);
    await addNode('edge-b', '127.0.0.8', 8082);
    const headers = { 'node-token': 'edge-a-credential-0123456789' };
    const plan = await test.app.inject({ method: 'GET', url: '/agent/v1/health/targets', headers });
    expect(plan.json()).toMatchObject({
      code: 0,
      data: { enabled: true, probe: 'http', path: '/health', targets: [{ ip: '127.0.0.8', port: 8082 }] },
    });
    const own = await test.app.inject({
      method: 'POST',
      url: '/agent/v1/health/probes',
      headers,
      payload: { results: [{ ip: '127.0.0.7', ok: false, detail: 'x' }] },
    });
    expect(own.json()).toMatchObject({ code: 0, data: { accepted: 0 } });
    await writeConfig(test.database.db, NODE_MONITOR, FAST, Date.now());
    const masterOnly = await test.app.inject({ method: 'GET', url: '/agent/v1/health/targets', headers });
    expect(masterOnly.json()).toMatchObject({ code: 0, data: { enabled: false, targets: [] } });
    const anonymous = await test.app.inject({ method: 'GET', url: '/agent/v1/health/targets' });
    expect(anonymous.json()).toMatchObject({ code: 'login_required' });
  });

  it('stops at once with a probe still waiting for a node that does not answer', async () => {
    // Accepts connections and never answers: the probe would wait for its whole timeout.
    let connected = false;
    const silent = createServer(() => {
      connected = true;
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.9', resolve));
    stops.push(async () => {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    await addNode('edge-mute', '127.0.0.9', (silent.address() as AddressInfo).port);
    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, timeout_seconds: 60 }, Date.now());
    const started = checker();
    await vi.waitFor(() => expect(connected).toBe(true), WAIT);
    // Well within the test's own timeout, far less than the probe's 60 s.
    await started.stop();
    const lease = await test.database.db.selectFrom('health_leases').selectAll().executeTakeFirstOrThrow();
    expect(Number(lease.expires_at)).toBe(0);
    expect((await switches()).total).toBe(0);
  });

  it('answers the switch log and the states to admins holding admin:node only, and names a bad time', async () => {
    const plain = await addUser(test, 'plain');
    for (const url of ['/v1/log/ip-switch', '/v1/monitor/node/ip-state']) {
      expect((await test.call('GET', url, { token: plain })).body).toMatchObject({ code: 'forbidden' });
    }
    const bad = await test.call('GET', '/v1/log/ip-switch?start=2026-13-45', { token: admin });
    expect(bad.body).toEqual({
      code: 'invalid_param',
      msg: 'querystring/start: 2026-13-45 is not a time',
      data: null,
      params: { field: 'querystring/start', rule: '2026-13-45 is not a time' },
    });
    const word = await test.call('GET', '/v1/log/ip-switch?end=yesterday', { token: admin });
    expect(word.body.code).toBe('invalid_param');
    expect(word.body.msg).toContain('end');
  });

  it('hands a switch over again next round when republishing failed (TCP probes)', async () => {
    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, probe: 'tcp' }, Date.now());
    await addNode('edge-gone', '127.0.0.10', 9);
    const calls: string[][] = [];
    checker(async (events) => {
      calls.push(events.map((event) => `${event.ip} ${event.to}`));
      if (calls.length === 1) throw new Error('the DNS API is away');
    });
    await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2), WAIT);
    expect(calls.slice(0, 2)).toEqual([['127.0.0.10 down'], ['127.0.0.10 down']]);
    // Once handed over, it is not handed over again, however many rounds follow.
    const streak = async () => (await stateOf('127.0.0.10'))?.votes[0]?.streak ?? 0;
    const seen = await streak();
    await vi.waitFor(async () => expect(await streak()).toBeGreaterThan(seen + 2), WAIT);
    expect(calls).toHaveLength(2);
    const log = await switches();
    expect(log.total).toBe(1);
    expect(log.list[0]?.reason).toBe('1 of 1 probes failed 3 times in a row: ECONNREFUSED');
  });

  it('sends the Host header the settings name, as an edge routes by site', async () => {
    const site = createServer((request, response) => {
      response.writeHead(request.headers.host === 'site.example.com' ? 200 : 421).end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.11', resolve));
    stops.push(async () => {
      site.closeAllConnections();
      await new Promise<void>((resolve) => site.close(() => resolve()));
    });
    await addNode('edge-site', '127.0.0.11', (site.address() as AddressInfo).port);
    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, path: '/', host: 'site.example.com' }, Date.now());
    checker();
    await vi.waitFor(async () => {
      expect((await stateOf('127.0.0.11'))?.votes[0]).toMatchObject({ ok: true, detail: 'HTTP 200' });
      expect((await stateOf('127.0.0.11'))?.votes[0]?.streak).toBeGreaterThanOrEqual(FAST.failures + 1);
    }, WAIT);
    expect((await stateOf('127.0.0.11'))?.state).toBe('up');

    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, path: '/', host: '' }, Date.now());
    await vi.waitFor(async () => expect((await stateOf('127.0.0.11'))?.state).toBe('down'), WAIT);
    expect((await switches()).list[0]?.reason).toBe('1 of 1 probes failed 3 times in a row: HTTP 421, expected 200');
  });

  it('lets one master at a time decide', async () => {
    const db = test.database.db;
    expect(await claimLease(db, 'node-health', 'master-a', 1000, 5000)).toBe(true);
    expect(await claimLease(db, 'node-health', 'master-b', 2000, 5000)).toBe(false);
    expect(await claimLease(db, 'node-health', 'master-a', 3000, 5000)).toBe(true);
    await releaseLease(db, 'node-health', 'master-a');
    expect(await claimLease(db, 'node-health', 'master-b', 4000, 5000)).toBe(true);
  });

  it('answers the monitor settings under global-0-node-monitor and refuses invalid ones naming the field', async () => {
    const read = await test.call('GET', '/v1/configs/global-0-node-monitor', { token: admin });
    expect(read.body).toMatchObject({ code: 0, data: { interval_seconds: 30, failures: 3, voters: 'master' } });
    const bad = await test.call('PUT', '/v1/configs/global-0-node-monitor', {
      token: admin,
      body: { ...FAST, failures: 0 },
    });
    expect(bad.body.code).toBe('invalid_param');
    expect(bad.body.msg).toContain('failures');
    expect(bad.body.msg).toContain('from 1 to 20');
    const overlapping = await test.call('PUT', '/v1/configs/global-0-node-monitor', {
      token: admin,
      body: { ...FAST, interval_seconds: 0.5, timeout_seconds: 5 },
    });
    expect(overlapping.body).toMatchObject({
      code: 'invalid_param',
      params: { field: 'body/timeout_seconds' },
    });
    expect(overlapping.body.msg).toContain('at most interval_seconds (0.5)');
    const fine = { ...FAST, timeout_seconds: FAST.interval_seconds };
    const saved = await test.call('PUT', '/v1/configs/global-0-node-monitor', { token: admin, body: fine });
    expect(saved.body).toMatchObject({ code: 0, data: fine });
  });
});
