import { Resolver } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NodeMonitorSettings } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { acceptedNode, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { writeConfig } from '../settings/configs.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { NODE_MONITOR } from './monitor-settings.ts';

const ZONE = 'fo.rampart.test';
const CNAME_DOMAIN = `cdn.${ZONE}`;
const FQDN = `lg.${CNAME_DOMAIN}`;
const FAST: NodeMonitorSettings = {
  enabled: true,
  probe: 'http',
  path: '/',
  expected_status: 200,
  interval_seconds: 0.2,
  timeout_seconds: 0.5,
  failures: 3,
  successes: 2,
  voters: 'master_and_nodes',
};
const WAIT = { timeout: 30_000, interval: 50 };

/** A node's web server on its own loopback address; stopped and started again on the same port. */
async function listen(ip: string, port = 0): Promise<Server> {
  const server = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => server.listen(port, ip, resolve));
  return server;
}
async function close(server: Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe.each(DIALECTS)('failover through a real PowerDNS on $dialect', (target) => {
  let pdns: PowerDns;
  let test: TestApp;
  let admin: string;
  const servers = new Set<Server>();
  let reporting: NodeJS.Timeout | undefined;

  const ask = async () => {
    const resolver = new Resolver({ timeout: 2000, tries: 2 });
    resolver.setServers([pdns.dnsAddress]);
    try {
      return (await resolver.resolve4(FQDN)).sort();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
      throw error;
    }
  };
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    test.call(method, url, { token: admin, ...(body !== undefined && { body }) });
  const node = async (ip: string, port: number) => {
    const accepted = await acceptedNode(test);
    expect((await call('PUT', `/v1/nodes/${accepted.nodeId}`, { ips: [ip], http_port: port })).body.code).toBe(0);
    return accepted;
  };
  const edge = async (ip: string, port = 0) => {
    const server = await listen(ip, port);
    servers.add(server);
    return server;
  };

  beforeEach(async () => {
    pdns = await startPowerDns();
    await pdns.createZone(ZONE);
    // The master as it runs: the checker starts with it and republishes DNS on each switch.
    test = await startTestApp(target, { background: true });
    // Off until the nodes are in place and their agents report.
    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, enabled: false }, Date.now());
    admin = await test.login('admin', ADMIN_PASSWORD);
    await saveSetting(test.database.db, 'dnsapi_allow_private', true);
    const api = data<{ id: number }>(
      await call('POST', '/v1/dnsapis', {
        name: 'pdns',
        provider: 'powerdns',
        credentials: { url: pdns.apiUrl, api_key: pdns.apiKey },
      }),
    ).id;
    data(
      await call('POST', '/v1/cname-domains', { domain: CNAME_DOMAIN, is_default: true, dnsapi_id: api, zone: ZONE }),
    );
  });
  afterEach(async () => {
    clearInterval(reporting);
    await test?.close();
    for (const server of servers) await close(server);
    servers.clear();
    await pdns?.close();
  });

  const lineGroup = async (ips: string[]) => {
    const lines = data<{ list: { id: number; code: string }[] }>(await call('GET', '/v1/lines')).list;
    const line = lines.find((entry) => entry.code === 'default')?.id ?? 0;
    data(
      await call('POST', '/v1/node-groups', {
        name: 'main',
        cname_domain_id: data<{ list: { id: number }[] }>(await call('GET', '/v1/cname-domains')).list[0]?.id ?? 0,
        host: 'lg',
        records: ips.map((ip) => ({ line_id: line, ip })),
      }),
    );
  };

  it('takes a dead node’s IP out of the answer and puts it back when it recovers; the master alone removes nothing the nodes reach', async () => {
    const a = await edge('127.0.0.21');
    const b = await edge('127.0.0.22');
    const nodeA = await node('127.0.0.21', (a.address() as AddressInfo).port);
    const nodeB = await node('127.0.0.22', (b.address() as AddressInfo).port);
    // Nothing listens where the master probes this node, but the other nodes reach it.
    await node('127.0.0.23', 9);
    await lineGroup(['127.0.0.21', '127.0.0.22', '127.0.0.23']);
    expect(await ask()).toEqual(['127.0.0.21', '127.0.0.22', '127.0.0.23']);

    // The nodes' agents report their probes of 127.0.0.23 every interval.
    const report = (credential: string) =>
      test.app.inject({
        method: 'POST',
        url: '/agent/v1/health/probes',
        headers: { 'node-token': credential },
        payload: { results: [{ ip: '127.0.0.23', ok: true, detail: 'HTTP 200' }] },
      });
    reporting = setInterval(() => {
      void report(nodeA.credential).catch(() => undefined);
      void report(nodeB.credential).catch(() => undefined);
    }, FAST.interval_seconds * 1000);
    for (const credential of [nodeA.credential, nodeB.credential]) {
      expect((await report(credential)).json()).toMatchObject({ code: 0, data: { accepted: 1 } });
    }
    await writeConfig(test.database.db, NODE_MONITOR, FAST, Date.now());

    const portA = (a.address() as AddressInfo).port;
    await close(a);
    servers.delete(a);
    await vi.waitFor(async () => expect(await ask()).toEqual(['127.0.0.22', '127.0.0.23']), WAIT);

    await edge('127.0.0.21', portA);
    await vi.waitFor(async () => expect(await ask()).toEqual(['127.0.0.21', '127.0.0.22', '127.0.0.23']), WAIT);

    // By now the master's probe of 127.0.0.23 has failed far more than `failures` times in a row.
    const states = data<{
      list: { ip: string; state: string; votes: { probe: string; ok: boolean; streak: number }[] }[];
    }>(await call('GET', '/v1/monitor/node/ip-state')).list;
    const far = states.find((entry) => entry.ip === '127.0.0.23');
    expect(far?.state).toBe('up');
    expect(far?.votes.find((vote) => vote.probe === 'master')).toMatchObject({ ok: false });
    expect(far?.votes.find((vote) => vote.probe === 'master')?.streak).toBeGreaterThan(FAST.failures);
    const log = data<{ list: { ip: string; to: string; line_group: string; line: string }[] }>(
      await call('GET', '/v1/log/ip-switch'),
    ).list;
    expect(log.map((entry) => [entry.ip, entry.to, entry.line_group, entry.line])).toEqual([
      ['127.0.0.21', 'up', 'main', 'Default'],
      ['127.0.0.21', 'down', 'main', 'Default'],
    ]);

    const filtered = async (query: string) =>
      data<{ total: number }>(await call('GET', `/v1/log/ip-switch?page=1&limit=20${query}`)).total;
    expect(await filtered('&line_group=mai&line=Defa&from=down')).toBe(1);
    expect(await filtered('&line_group=ma_n')).toBe(0);
    expect(await filtered('&line=Telecom')).toBe(0);

    // Without the nodes vouching for it, the master's vote is the only one and the IP leaves.
    clearInterval(reporting);
    await vi.waitFor(async () => expect(await ask()).toEqual(['127.0.0.21', '127.0.0.22']), WAIT);
  });
  it('puts a re-enabled node’s IP back only after good probes, not before the first one', async () => {
    const a = await edge('127.0.0.24');
    const b = await edge('127.0.0.25');
    const portA = (a.address() as AddressInfo).port;
    const nodeA = await node('127.0.0.24', portA);
    await node('127.0.0.25', (b.address() as AddressInfo).port);
    await lineGroup(['127.0.0.24', '127.0.0.25']);
    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, voters: 'master' }, Date.now());
    expect(await ask()).toEqual(['127.0.0.24', '127.0.0.25']);

    expect((await call('PUT', `/v1/nodes/${nodeA.nodeId}`, { enabled: false })).body.code).toBe(0);
    expect(await ask()).toEqual(['127.0.0.25']);
    // Its nginx stops while it is disabled; then it is enabled again.
    await close(a);
    servers.delete(a);
    expect((await call('PUT', `/v1/nodes/${nodeA.nodeId}`, { enabled: true })).body.code).toBe(0);
    expect(await ask()).toEqual(['127.0.0.25']);
    const held = data<{ list: { ip: string; state: string; changed_at: string | null }[] }>(
      await call('GET', '/v1/monitor/node/ip-state'),
    ).list.find((entry) => entry.ip === '127.0.0.24');
    expect(held?.state).toBe('down');
    expect(held?.changed_at).not.toBeNull();

    // It stays out while its probes fail, and comes back once they succeed.
    await vi.waitFor(async () => {
      const entry = data<{ list: { ip: string; votes: { ok: boolean; streak: number }[] }[] }>(
        await call('GET', '/v1/monitor/node/ip-state'),
      ).list.find((state) => state.ip === '127.0.0.24');
      expect(entry?.votes[0]).toMatchObject({ ok: false });
      expect(entry?.votes[0]?.streak).toBeGreaterThan(FAST.successes);
    }, WAIT);
    expect(await ask()).toEqual(['127.0.0.25']);
    await edge('127.0.0.24', portA);
    await vi.waitFor(async () => expect(await ask()).toEqual(['127.0.0.24', '127.0.0.25']), WAIT);
    const log = data<{ list: { ip: string; to: string; reason: string }[] }>(
      await call('GET', '/v1/log/ip-switch'),
    ).list;
    expect(log[0]).toMatchObject({ ip: '127.0.0.24', to: 'up', reason: '1 of 1 probes succeeded 2 times in a row' });
  });

  it('probes from the master when too few agents vote, so a dead edge leaves DNS with no voter left', async () => {
    const b = await edge('127.0.0.27');
    // Nothing listens on the first node's port: it refuses every connection. No agent reports.
    await node('127.0.0.26', 9);
    await node('127.0.0.27', (b.address() as AddressInfo).port);
    await lineGroup(['127.0.0.26', '127.0.0.27']);
    expect(await ask()).toEqual(['127.0.0.26', '127.0.0.27']);
    await writeConfig(test.database.db, NODE_MONITOR, { ...FAST, voters: 'nodes' }, Date.now());

    await vi.waitFor(async () => expect(await ask()).toEqual(['127.0.0.27']), WAIT);
    const states = data<{ list: { ip: string; state: string; votes: { probe: string; ok: boolean }[] }[] }>(
      await call('GET', '/v1/monitor/node/ip-state'),
    ).list;
    expect(states.find((entry) => entry.ip === '127.0.0.26')).toMatchObject({
      state: 'down',
      votes: [{ probe: 'master', ok: false }],
    });
    expect(states.find((entry) => entry.ip === '127.0.0.27')).toMatchObject({
      state: 'up',
      votes: [{ probe: 'master', ok: true }],
    });
  });
});
