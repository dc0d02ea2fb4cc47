import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, HOSTILE_VALUES, startTestApp, type TestApp } from '../../test/test-app.ts';

const origin = { address: '127.0.0.1', port: 9000, weight: 1, backup: false };

describe.each(DIALECTS)('streams on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterEach(async () => {
    await test.close();
  });

  it('creates a TCP stream with defaults and lists it for its owner only', async () => {
    const created = await test.call('POST', '/v1/streams', {
      token: alice,
      body: { listen_port: 3306, protocol: 'tcp', origins: [origin] },
    });
    expect(created.body).toMatchObject({
      code: 0,
      data: { name: 'tcp/3306', balance: 'round_robin', proxy_protocol: false, enabled: true },
    });
    expect((await test.call('GET', '/v1/streams', { token: alice })).body.data).toMatchObject({ total: 1 });
    expect((await test.call('GET', '/v1/streams', { token: bob })).body.data).toMatchObject({ total: 0 });
    const id = (created.body.data as { id: number }).id;
    expect((await test.call('PUT', `/v1/streams/${id}`, { token: bob, body: { enabled: false } })).status).toBe(404);
    expect((await test.call('GET', `/v1/streams/${id}/apply-status`, { token: alice })).body.data).toMatchObject({
      nodes: [],
    });
    expect((await test.call('GET', `/v1/streams/${id}/apply-status`, { token: bob })).status).toBe(404);
  });

  it('names a stream group that is not the caller’s as not found', async () => {
    const group = await test.call('POST', '/v1/stream-groups', { token: alice, body: { name: 'games' } });
    const groupId = (group.body.data as { id: number }).id;
    for (const [token, groupRef] of [
      [bob, groupId],
      [alice, 999_999],
    ] as const) {
      const refused = await test.call('POST', '/v1/streams', {
        token,
        body: { listen_port: 7000, protocol: 'tcp', origins: [origin], group_id: groupRef },
      });
      expect([refused.status, refused.body.msg]).toEqual([404, `group_id: stream group ${groupRef} does not exist`]);
    }
    const own = await test.call('POST', '/v1/streams', {
      token: alice,
      body: { listen_port: 7000, protocol: 'tcp', origins: [origin], group_id: groupId },
    });
    expect(own.body.code).toBe(0);
  });

  it('explains a listen-port conflict, per protocol', async () => {
    await test.call('POST', '/v1/streams', {
      token: alice,
      body: { listen_port: 5353, protocol: 'udp', origins: [origin] },
    });
    const taken = await test.call('POST', '/v1/streams', {
      token: bob,
      body: { listen_port: 5353, protocol: 'udp', origins: [origin] },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('listen_port: port 5353/udp is already used by another forwarding rule');
    const tcp = await test.call('POST', '/v1/streams', {
      token: bob,
      body: { listen_port: 5353, protocol: 'tcp', origins: [origin] },
    });
    expect(tcp.body.code).toBe(0);
  });

  it('refuses hostile origin addresses and names, and out-of-range ports', async () => {
    for (const value of HOSTILE_VALUES) {
      const address = await test.call('POST', '/v1/streams', {
        token: alice,
        body: { listen_port: 7000, protocol: 'tcp', origins: [{ ...origin, address: `10.0.0.1${value}` }] },
      });
      expect(address.body.code).toBe('invalid_param');
      const name = await test.call('POST', '/v1/streams', {
        token: alice,
        body: { listen_port: 7000, protocol: 'tcp', origins: [origin], name: `n${value}` },
      });
      expect(name.body.code).toBe('invalid_param');
    }
    const port = await test.call('POST', '/v1/streams', {
      token: alice,
      body: { listen_port: 70000, protocol: 'tcp', origins: [origin] },
    });
    expect(port.body.msg).toBe('body/listen_port: must be a port from 1 to 65535');
    expect(await test.database.db.selectFrom('streams').selectAll().execute()).toEqual([]);
  });

  it('disables and deletes in a batch', async () => {
    const id = (
      (
        await test.call('POST', '/v1/streams', {
          token: alice,
          body: { listen_port: 2222, protocol: 'tcp', origins: [origin] },
        })
      ).body.data as { id: number }
    ).id;
    expect(
      (await test.call('PUT', '/v1/streams', { token: alice, body: { ids: [id], action: 'disable' } })).body.code,
    ).toBe(0);
    expect((await test.call('GET', `/v1/streams/${id}`, { token: alice })).body.data).toMatchObject({ enabled: false });
    expect((await test.call('PUT', '/v1/streams', { token: bob, body: { ids: [id], action: 'delete' } })).status).toBe(
      404,
    );
    expect((await test.call('DELETE', `/v1/streams/${id}`, { token: alice })).body.code).toBe(0);
  });
});
