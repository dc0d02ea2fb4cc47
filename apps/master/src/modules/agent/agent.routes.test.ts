import { gunzipSync } from 'node:zlib';
import type { ConfigAnswer, LogBatchBody } from '@rampart/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { waitingForConfigChange } from '../config/config-version.ts';

const registration = (install_token: string) => ({
  install_token,
  hostname: 'edge-1',
  ips: ['127.0.0.1'],
  agent_version: '0.1.0',
});

describe.each(DIALECTS)('agent API on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  const nodeCall = async (method: 'GET' | 'POST', url: string, credential: string, body?: unknown) => {
    const response = await test.app.inject({
      method,
      url,
      headers: { 'node-token': credential },
      ...(body !== undefined && { payload: body as object }),
    });
    return {
      status: response.statusCode,
      body: response.json() as { code: number | string; msg: string; data: unknown },
    };
  };

  async function acceptedNode(): Promise<{ credential: string; nodeId: number }> {
    const token = (await test.call('GET', '/v1/nodes/install-token', { token: admin })).body.data as {
      install_token: string;
    };
    const registered = (await test.call('POST', '/agent/v1/register', { body: registration(token.install_token) })).body
      .data as {
      pending_id: number;
      poll_secret: string;
    };
    await test.call('POST', '/v1/nodes', {
      token: admin,
      body: { pending_id: registered.pending_id, http_port: 18080 },
    });
    const poll = await test.app.inject({
      method: 'GET',
      url: `/agent/v1/register/${registered.pending_id}`,
      headers: { 'node-secret': registered.poll_secret },
    });
    const data = poll.json().data as { credential: string; node_id: number };
    return { credential: data.credential, nodeId: data.node_id };
  }

  it('registers with the install token, waits for an admin, and hands the credential over once', async () => {
    const bad = await test.call('POST', '/agent/v1/register', { body: registration('x'.repeat(32)) });
    expect(bad.body.code).toBe('forbidden');
    const { install_token } = (await test.call('GET', '/v1/nodes/install-token', { token: admin })).body.data as {
      install_token: string;
    };
    const registered = (await test.call('POST', '/agent/v1/register', { body: registration(install_token) })).body
      .data as {
      pending_id: number;
      poll_secret: string;
    };
    const poll = () =>
      test.app.inject({
        method: 'GET',
        url: `/agent/v1/register/${registered.pending_id}`,
        headers: { 'node-secret': registered.poll_secret },
      });
    expect((await poll()).json().data).toEqual({ state: 'pending' });
    const pending = (await test.call('GET', '/v1/pending-nodes', { token: admin })).body.data as {
      list: { hostname: string }[];
    };
    expect(pending.list.map((entry) => entry.hostname)).toEqual(['edge-1']);
    await test.call('POST', '/v1/nodes', { token: admin, body: { pending_id: registered.pending_id } });
    const accepted = (await poll()).json().data as { state: string; credential: string };
    expect(accepted.state).toBe('accepted');
    expect(accepted.credential.length).toBeGreaterThanOrEqual(43);
    expect((await poll()).json().code).toBe('conflict');
    const stored = await test.database.db.selectFrom('nodes').select('credential_hash').executeTakeFirstOrThrow();
    expect(stored.credential_hash).not.toBe(accepted.credential);
  });

  it('lets only admins see or rotate the install token', async () => {
    const user = await addUser(test, 'carol');
    expect((await test.call('GET', '/v1/nodes/install-token', { token: user })).status).toBe(403);
    const first = (await test.call('GET', '/v1/nodes/install-token', { token: admin })).body.data;
    const rotated = (await test.call('POST', '/v1/nodes/install-token', { token: admin })).body.data;
    expect(rotated).not.toEqual(first);
  });

  it('answers a config poll at once when behind, with the node settings and the sites, also gzipped', async () => {
    const { credential } = await acceptedNode();
    const user = await addUser(test, 'dave');
    await test.call('POST', '/v1/sites', {
      token: user,
      body: { domains: ['a.example.com'], origins: [{ address: '127.0.0.1', port: 9000, weight: 1, backup: false }] },
    });
    const plain = await nodeCall('GET', '/agent/v1/config?version=0', credential);
    const answer = plain.body.data as ConfigAnswer;
    expect(answer.changed).toBe(true);
    expect(answer.snapshot?.node.http_port).toBe(18080);
    expect(answer.snapshot?.sites.map((site) => site.domains)).toEqual([['a.example.com']]);
    const zipped = await test.app.inject({
      method: 'GET',
      url: '/agent/v1/config?version=0',
      headers: { 'node-token': credential, 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString()).data).toEqual(answer);
  });

  it('marks a node seen on its calls, writing the time again only once it is 10 s old', async () => {
    const { credential, nodeId } = await acceptedNode();
    const seen = async () =>
      Number(
        (
          await test.database.db
            .selectFrom('nodes')
            .select('last_seen_at')
            .where('id', '=', nodeId)
            .executeTakeFirstOrThrow()
        ).last_seen_at,
      );
    await nodeCall('GET', '/agent/v1/config?version=0', credential);
    const first = await seen();
    expect(Date.now() - first).toBeLessThan(10_000);
    // A call within the interval leaves the stored time; one after it writes a new one.
    const recent = first - 5_000;
    await test.database.db.updateTable('nodes').set({ last_seen_at: recent }).where('id', '=', nodeId).execute();
    await nodeCall('GET', '/agent/v1/config?version=0', credential);
    expect(await seen()).toBe(recent);
    const old = Date.now() - 10_001;
    await test.database.db.updateTable('nodes').set({ last_seen_at: old }).where('id', '=', nodeId).execute();
    await nodeCall('GET', '/agent/v1/config?version=0', credential);
    expect(await seen()).toBeGreaterThan(old + 10_000);
  });

  it('holds a poll at the current version until a change commits, or answers unchanged after the wait', async () => {
    const { credential } = await acceptedNode();
    const version = ((await nodeCall('GET', '/agent/v1/config?version=0', credential)).body.data as ConfigAnswer)
      .version;
    const idle = await nodeCall('GET', `/agent/v1/config?version=${version}&wait=1`, credential);
    expect(idle.body.data).toEqual({ version, changed: false });
    const started = Date.now();
    const held = nodeCall('GET', `/agent/v1/config?version=${version}&wait=20`, credential);
    await vi.waitFor(() => expect(waitingForConfigChange()).toBe(1), { timeout: 10_000 });
    const user = await addUser(test, 'erin');
    await test.call('POST', '/v1/sites', {
      token: user,
      body: { domains: ['b.example.com'], origins: [{ address: '127.0.0.1', port: 9000, weight: 1, backup: false }] },
    });
    const answer = (await held).body.data as ConfigAnswer;
    expect(answer.version).toBeGreaterThan(version);
    // Well inside the 20 s wait: the change ended the hold, not the wait running out.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('answers a held poll at once when the master closes, and then closes', async () => {
    const { credential } = await acceptedNode();
    const version = ((await nodeCall('GET', '/agent/v1/config?version=0', credential)).body.data as ConfigAnswer)
      .version;
    const address = await test.app.listen({ host: '127.0.0.1', port: 0 });
    const held = fetch(`${address}/agent/v1/config?version=${version}&wait=60`, {
      headers: { 'node-token': credential },
    });
    await vi.waitFor(() => expect(waitingForConfigChange()).toBe(1), { timeout: 10_000 });
    const closed = test.app.close();
    // Well inside the poll's 60 s: the answer comes from the close, not from the wait running out.
    const deadline = new Promise((_, reject) => setTimeout(() => reject(new Error('the poll was held')), 15_000));
    const answer = (await Promise.race([held, deadline])) as Response;
    expect(answer.headers.get('connection')).toBe('close');
    expect(((await answer.json()) as { data: unknown }).data).toEqual({ version, changed: false });
    await Promise.race([closed, deadline]);
  });

  it('records status and per-site errors for the node and the site', async () => {
    const { credential, nodeId } = await acceptedNode();
    const user = await addUser(test, 'fay');
    const site = (
      await test.call('POST', '/v1/sites', {
        token: user,
        body: { domains: ['c.example.com'], origins: [{ address: '127.0.0.1', port: 9000, weight: 1, backup: false }] },
      })
    ).body.data as { id: number };
    const version = ((await nodeCall('GET', '/agent/v1/config?version=0', credential)).body.data as ConfigAnswer)
      .version;
    await nodeCall('POST', '/agent/v1/status', credential, {
      applied_version: version,
      apply_errors: [{ kind: 'site', id: site.id, error: 'upstream host not found' }],
      last_error: '',
      dropped_log_lines: 3,
    });
    const node = (await test.call('GET', `/v1/nodes/${nodeId}`, { token: admin })).body.data;
    expect(node).toMatchObject({
      applied_version: version,
      status: 'online',
      dropped_log_lines: 3,
      apply_errors: [{ kind: 'site', id: site.id }],
    });
    const status = (await test.call('GET', `/v1/sites/${site.id}/apply-status`, { token: user })).body.data;
    expect(status).toMatchObject({ nodes: [{ node_id: nodeId, applied: false, error: 'upstream host not found' }] });
  });

  it('refuses a deleted node’s credential', async () => {
    const { credential, nodeId } = await acceptedNode();
    await test.call('DELETE', `/v1/nodes/${nodeId}`, { token: admin });
    expect((await nodeCall('GET', '/agent/v1/config?version=0', credential)).body.code).toBe('login_required');
  });

  it('delivers purge jobs for the caller’s own URLs with the snapshot and tracks per-node progress', async () => {
    const { credential } = await acceptedNode();
    const user = await addUser(test, 'gus');
    const other = await addUser(test, 'hal');
    await test.call('POST', '/v1/sites', {
      token: user,
      body: {
        domains: ['*.shop.example.com'],
        origins: [{ address: '127.0.0.1', port: 9000, weight: 1, backup: false }],
      },
    });
    const foreign = await test.call('POST', '/v1/jobs', {
      token: other,
      body: { type: 'purge-url', urls: ['http://a.shop.example.com/x'] },
    });
    expect(foreign.body).toMatchObject({
      code: 'invalid_param',
      msg: 'urls: a.shop.example.com is not a domain of any of your sites',
    });
    const created = await test.call('POST', '/v1/jobs', {
      token: user,
      body: { type: 'purge-url', urls: ['http://a.shop.example.com/x?y=1'] },
    });
    const [jobId] = (created.body.data as { ids: number[] }).ids;
    const snapshot = ((await nodeCall('GET', '/agent/v1/config?version=0', credential)).body.data as ConfigAnswer)
      .snapshot;
    expect(snapshot?.jobs).toEqual([
      { id: jobId, type: 'purge-url', site_id: expect.any(Number), urls: ['http://a.shop.example.com/x?y=1'] },
    ]);
    await nodeCall('POST', `/agent/v1/jobs/${jobId}/result`, credential, { state: 'done', error: '' });
    const jobs = (await test.call('GET', '/v1/jobs', { token: user })).body.data as { list: { progress: unknown }[] };
    expect(jobs.list[0]?.progress).toEqual({ total: 1, done: 1, failed: 0, pending: 0 });
    expect((await test.call('GET', '/v1/jobs', { token: other })).body.data).toEqual({ list: [], total: 0 });
  });

  it('stores a log batch exactly once, however often it is sent', async () => {
    const { credential } = await acceptedNode();
    const line = {
      time: 1_795_000_000.123,
      site_id: 1,
      client_ip: '127.0.0.1',
      method: 'GET',
      host: 'a.example.com',
      uri: '/x',
      status: 200,
      bytes_sent: 512,
      bytes_received: 80,
      request_time: 0.002,
      upstream_time: 0.001,
      cache_status: 'MISS',
      user_agent: 'curl',
      referer: '',
      block_reason: '',
    };
    const batch: LogBatchBody = { seq: 1, access: [line, { ...line, uri: '/y' }], stream: [] };
    expect((await nodeCall('POST', '/agent/v1/logs', credential, batch)).body.data).toEqual({
      seq: 1,
      duplicate: false,
    });
    expect((await nodeCall('POST', '/agent/v1/logs', credential, batch)).body.data).toEqual({
      seq: 1,
      duplicate: true,
    });
    const rows = await test.database.logs.selectFrom('access_logs').select(['uri', 'time_ms']).orderBy('uri').execute();
    if (target.dialect === 'postgres') {
      // The rows went into the day partition made for them.
      const { rows: partitions } = await sql<{ name: string }>`select c.relname as name from pg_inherits i
        join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'access_logs'
        and c.relnamespace = p.relnamespace and pg_table_is_visible(c.oid)`.execute(test.database.logs);
      expect(partitions.map((row) => row.name)).toEqual(['access_logs_2026_11_18']);
    }
    expect(rows).toEqual([
      { uri: '/x', time_ms: 1_795_000_000_123 },
      { uri: '/y', time_ms: 1_795_000_000_123 },
    ]);
  });

  it('keeps the latest per-minute totals, so a repeated metrics report does not double-count', async () => {
    const { credential } = await acceptedNode();
    const minute = {
      site_id: 1,
      minute: 1_795_000_020,
      requests: 5,
      bytes_in: 1,
      bytes_out: 2,
      status_2xx: 5,
      status_3xx: 0,
      status_4xx: 0,
      status_5xx: 0,
      cache_hits: 1,
    };
    const report = (requests: number) => ({
      time: 1_795_000_030 + requests,
      cpu_percent: 3.5,
      memory_used_bytes: 1,
      memory_total_bytes: 2,
      load1: 0.1,
      connections: 4,
      bytes_in: 10,
      bytes_out: 20,
      sites: [{ ...minute, requests }],
    });
    await nodeCall('POST', '/agent/v1/metrics', credential, report(5));
    await nodeCall('POST', '/agent/v1/metrics', credential, report(5));
    await nodeCall('POST', '/agent/v1/metrics', credential, report(9));
    const rows = await test.database.logs.selectFrom('site_minutes').select('requests').execute();
    expect(rows).toEqual([{ requests: 9 }]);
  });

  it('shows on the node list how far a node clock runs off, and tells the admin once', async () => {
    const { credential } = await acceptedNode();
    const listed = async () =>
      ((await test.call('GET', '/v1/nodes', { token: admin })).body.data as { list: Record<string, unknown>[] })
        .list[0];
    expect(await listed()).toMatchObject({ clock_offset_seconds: null });
    const report = () => ({
      // Ten minutes ahead of the master's clock.
      time: Math.floor(Date.now() / 1000) + 600,
      cpu_percent: 1,
      memory_used_bytes: 1,
      memory_total_bytes: 2,
      load1: 0,
      connections: 0,
      bytes_in: 0,
      bytes_out: 0,
      sites: [],
    });
    expect((await nodeCall('POST', '/agent/v1/metrics', credential, report())).status).toBe(200);
    expect((await nodeCall('POST', '/agent/v1/metrics', credential, report())).status).toBe(200);
    const node = await listed();
    expect(node?.clock_offset_seconds).toBeGreaterThanOrEqual(599);
    expect(node?.clock_offset_seconds).toBeLessThanOrEqual(601);
    // Liveness stays on the master's clock.
    expect(node?.status).toBe('online');
    const messages = (await test.call('GET', '/v1/messages?type=node_failover', { token: admin })).body.data as {
      list: { title: string }[];
    };
    expect(messages.list.filter((message) => message.title.startsWith('The clock of node'))).toHaveLength(1);
  });
});
