import { DEFAULT_SITE_HEALTH_CHECK, type OriginHealth, type OriginHealthEntry } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const origins = [
  { address: '10.0.0.1', port: 8080, weight: 1, backup: false },
  { address: '10.0.0.2', port: 8080, weight: 1, backup: false },
];

describe.each(DIALECTS)('origin states the nodes report on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  /** A node registered and accepted; its credential. */
  async function acceptedNode(hostname: string): Promise<{ credential: string; nodeId: number }> {
    const token = (await test.call('GET', '/v1/nodes/install-token', { token: admin })).body.data as {
      install_token: string;
    };
    const registered = (
      await test.call('POST', '/agent/v1/register', {
        body: { install_token: token.install_token, hostname, ips: ['127.0.0.1'], agent_version: '0.1.0' },
      })
    ).body.data as { pending_id: number; poll_secret: string };
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

  const report = async (credential: string, origin_health?: OriginHealthEntry[]) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/agent/v1/status',
      headers: { 'node-token': credential },
      payload: {
        applied_version: 0,
        apply_errors: [],
        last_error: '',
        dropped_log_lines: 0,
        ...(origin_health && { origin_health }),
      },
    });
    expect(response.json()).toMatchObject({ code: 0 });
  };

  const createSite = async (token: string) =>
    (
      (
        await test.call('POST', '/v1/sites', {
          token,
          body: {
            domains: [`s${Math.random().toString(36).slice(2, 8)}.example.com`],
            origins,
            health_check: { ...DEFAULT_SITE_HEALTH_CHECK, enabled: true },
          },
        })
      ).body.data as { id: number }
    ).id;

  it('shows each origin as each node last reported it, to the site’s owner and not to others', async () => {
    const siteId = await createSite(alice);
    const one = await acceptedNode('edge-1');
    const two = await acceptedNode('edge-2');
    await report(one.credential, [
      { site_id: siteId, address: '10.0.0.2', port: 8080, up: false, checked_at: 1_790_000_000, error: 'timeout' },
      { site_id: siteId, address: '10.0.0.1', port: 8080, up: true, checked_at: 1_790_000_001, error: '' },
      { site_id: siteId + 100, address: '10.9.9.9', port: 80, up: true, checked_at: 0, error: '' },
    ]);
    await report(two.credential, [
      { site_id: siteId, address: '10.0.0.1', port: 8080, up: true, checked_at: 0, error: '' },
    ]);
    const answer = await test.call('GET', `/v1/sites/${siteId}/origin-health`, { token: alice });
    expect(answer.body.code).toBe(0);
    const health = answer.body.data as OriginHealth;
    expect(health.enabled).toBe(true);
    expect(health.nodes.map((node) => [node.node_id, node.name])).toEqual([
      [one.nodeId, 'edge-1'],
      [two.nodeId, 'edge-2'],
    ]);
    expect(health.nodes[0]?.origins).toEqual([
      { address: '10.0.0.1', port: 8080, up: true, checked_at: '2026-09-21T14:13:21.000Z', error: '' },
      { address: '10.0.0.2', port: 8080, up: false, checked_at: '2026-09-21T14:13:20.000Z', error: 'timeout' },
    ]);
    expect(health.nodes[1]?.origins).toEqual([
      { address: '10.0.0.1', port: 8080, up: true, checked_at: null, error: '' },
    ]);
    const bob = await addUser(test, 'bob');
    expect((await test.call('GET', `/v1/sites/${siteId}/origin-health`, { token: bob })).status).toBe(404);
    expect((await test.call('GET', `/v1/sites/${siteId}/origin-health`, { token: admin })).body.code).toBe(0);
  });

  it('replaces a node’s states with each report that carries them, and keeps them when one does not', async () => {
    const siteId = await createSite(alice);
    const node = await acceptedNode('edge-1');
    await report(node.credential, [
      { site_id: siteId, address: '10.0.0.1', port: 8080, up: false, checked_at: 5, error: 'connection refused' },
    ]);
    // An agent that does not read its edge's checks (an older one) leaves the states as they were.
    await report(node.credential);
    const read = async () =>
      ((await test.call('GET', `/v1/sites/${siteId}/origin-health`, { token: alice })).body.data as OriginHealth).nodes;
    expect((await read())[0]?.origins).toMatchObject([{ up: false, error: 'connection refused' }]);
    await report(node.credential, [
      { site_id: siteId, address: '10.0.0.1', port: 8080, up: true, checked_at: 6, error: '' },
    ]);
    expect((await read())[0]?.origins).toMatchObject([{ up: true, error: '' }]);
    // The check was turned off: the node reports nothing more for the site.
    await report(node.credential, []);
    expect(await read()).toEqual([]);
  });

  it('refuses a report whose states do not fit the schema', async () => {
    const node = await acceptedNode('edge-1');
    const response = await test.app.inject({
      method: 'POST',
      url: '/agent/v1/status',
      headers: { 'node-token': node.credential },
      payload: {
        applied_version: 0,
        apply_errors: [],
        last_error: '',
        dropped_log_lines: 0,
        origin_health: [{ site_id: 1, address: '10.0.0.1', port: 70000, up: true, checked_at: 0, error: '' }],
      },
    });
    expect(response.json()).toMatchObject({ code: 'invalid_param' });
  });
});
