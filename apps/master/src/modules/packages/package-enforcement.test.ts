import { DEFAULT_EDGE_ENFORCEMENT, type EdgeSnapshot, type UserPackageView } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, createSite, data, type EdgeNode, ORIGIN, snapshotOf } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { settleUserPackages } from './package-expiry.ts';

const POLICY = '/v1/configs/global-0-edge-enforcement';

describe.each(DIALECTS)('sites of inactive packages in the snapshot on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let node: EdgeNode;
  let monthly: number;

  const userId = async (token: string) => data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
  const buyer = async (name: string, packageId: number) => {
    const token = await addUser(test, name);
    data(
      await test.call('POST', `/v1/user/${await userId(token)}/recharge`, { token: admin, body: { amount: 10_000 } }),
    );
    const pkg = data<UserPackageView>(
      await test.call('POST', '/v1/user-packages', { token, body: { package_id: packageId } }),
    );
    return { token, pkg };
  };
  const siteIn = (snapshot: EdgeSnapshot, id: number) => snapshot.sites.find((site) => site.id === id);
  const setState = async (id: number, state: 'active' | 'suspended') =>
    data(await test.call('PUT', '/v1/user-packages', { token: admin, body: { ids: [id], state } }));

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    node = await acceptedNode(test);
    monthly = data(
      await test.call('POST', '/v1/packages', {
        token: admin,
        body: {
          name: 'Monthly',
          price_month: 1000,
          max_sites: 5,
          max_domains: 5,
          max_streams: 5,
          max_ports: 5,
          on_sale: true,
        },
      }),
    ).id;
  });
  afterAll(() => test.close());

  it('keeps an expired package’s site with a suspend enforcement at a new version, and drops it on renewal', async () => {
    const { token, pkg } = await buyer('ann', monthly);
    const site = await createSite(test, token, 'ann.example.test');
    expect(siteIn(await snapshotOf(test, node), site)?.enforcement).toBeUndefined();

    const before = await currentConfigVersion(test.database.db);
    await test.database.db
      .updateTable('user_packages')
      .set({ end_at: Date.now() - 1000 })
      .where('id', '=', pkg.id)
      .execute();
    expect(await settleUserPackages(test.database.db)).toMatchObject({ expired: 1 });
    const expired = await snapshotOf(test, node);
    expect(expired.version).toBeGreaterThan(before);
    expect(siteIn(expired, site)?.enforcement).toEqual({ mode: 'suspend', reason: 'expired' });

    const renewed = await test.call('PUT', `/v1/user-packages/${pkg.id}`, {
      token,
      body: { renew: { term: 'month' } },
    });
    expect(data<UserPackageView>(renewed).state).toBe('active');
    const back = await snapshotOf(test, node);
    expect(back.version).toBeGreaterThan(expired.version);
    expect(siteIn(back, site)).toBeDefined();
    expect(siteIn(back, site)?.enforcement).toBeUndefined();
  });

  it('follows the operator’s policy: a suspended package’s site is throttled, its stream throttled or dropped', async () => {
    const { token, pkg } = await buyer('ben', monthly);
    const site = await createSite(test, token, 'ben.example.test');
    const stream = data(
      await test.call('POST', '/v1/streams', {
        token,
        body: { listen_port: 30_911, protocol: 'tcp', origins: [ORIGIN] },
      }),
    ).id;
    await setState(pkg.id, 'suspended');
    const suspended = await snapshotOf(test, node);
    expect(siteIn(suspended, site)?.enforcement).toEqual({ mode: 'suspend', reason: 'suspended' });
    // A stream has no page to show: under `suspend` it leaves the snapshot.
    expect(suspended.streams.map((entry) => entry.id)).not.toContain(stream);

    const version = suspended.version;
    const policy = { policy: 'throttle', throttle_kbps: 32 };
    expect(data(await test.call('PUT', POLICY, { token: admin, body: policy }))).toEqual(policy);
    const throttled = await snapshotOf(test, node);
    expect(throttled.version).toBeGreaterThan(version);
    expect(siteIn(throttled, site)?.enforcement).toEqual({ mode: 'throttle', rate_kbps: 32 });
    expect(throttled.streams.find((entry) => entry.id === stream)?.enforcement).toEqual({
      mode: 'throttle',
      rate_kbps: 32,
    });

    await setState(pkg.id, 'active');
    const active = await snapshotOf(test, node);
    expect(siteIn(active, site)?.enforcement).toBeUndefined();
    expect(active.streams.find((entry) => entry.id === stream)?.enforcement).toBeUndefined();
    data(await test.call('DELETE', POLICY, { token: admin }));
  });

  it('answers the default policy and refuses values out of range, naming the field', async () => {
    expect(data(await test.call('GET', POLICY, { token: admin }))).toEqual(DEFAULT_EDGE_ENFORCEMENT);
    for (const [body, field] of [
      [{ policy: 'throttle', throttle_kbps: 0 }, 'throttle_kbps'],
      [{ policy: 'throttle', throttle_kbps: 102_401 }, 'throttle_kbps'],
      [{ policy: 'throttle', throttle_kbps: 1.5 }, 'throttle_kbps'],
      [{ policy: 'throttle', throttle_kbps: '64k; limit_rate 0' }, 'throttle_kbps'],
      [{ policy: 'block', throttle_kbps: 64 }, 'policy'],
    ] as const) {
      const answer = await test.call('PUT', POLICY, { token: admin, body });
      expect(answer.body.code, JSON.stringify(answer.body)).toBe('invalid_param');
      expect(answer.body.msg).toMatch(field);
    }
    const user = await addUser(test, 'cy');
    expect((await test.call('PUT', POLICY, { token: user, body: DEFAULT_EDGE_ENFORCEMENT })).body.code).toBe(
      'forbidden',
    );
  });

  it('gives each site its package’s bandwidth in bytes per second, with bandwidth packs, and none when unlimited', async () => {
    const capped = data(
      await test.call('POST', '/v1/packages', {
        token: admin,
        body: { name: '8 Mbit/s', price_month: 100, bandwidth_mbps: 8, max_sites: 2, max_domains: 2, on_sale: true },
      }),
    ).id;
    const { token, pkg } = await buyer('dee', capped);
    const site = await createSite(test, token, 'dee.example.test');
    expect(siteIn(await snapshotOf(test, node), site)?.bandwidth_bps).toBe(1_000_000);

    const pack = data(
      await test.call('POST', '/v1/package-ups', {
        token: admin,
        body: { name: '+2 Mbit/s', kind: 'bandwidth_mbps', amount: 2, price_month: 100 },
      }),
    ).id;
    data(
      await test.call('POST', `/v1/user-package/${pkg.id}/upgrades`, {
        token,
        body: { package_up_id: pack, amount: 1 },
      }),
    );
    expect(siteIn(await snapshotOf(test, node), site)?.bandwidth_bps).toBe(1_250_000);

    const { token: eve } = await buyer('eve', monthly);
    const unlimited = await createSite(test, eve, 'eve.example.test');
    expect(siteIn(await snapshotOf(test, node), unlimited)).toBeDefined();
    expect(siteIn(await snapshotOf(test, node), unlimited)?.bandwidth_bps).toBeUndefined();
  });

  it('sends a new cap when the package’s bandwidth changes, and drops a bandwidth pack left behind by a renewal', async () => {
    const capped = data(
      await test.call('POST', '/v1/packages', {
        token: admin,
        body: { name: '16 Mbit/s', price_month: 100, bandwidth_mbps: 16, max_sites: 2, max_domains: 2, on_sale: true },
      }),
    ).id;
    const { token, pkg } = await buyer('fay', capped);
    const site = await createSite(test, token, 'fay.example.test');
    expect(siteIn(await snapshotOf(test, node), site)?.bandwidth_bps).toBe(2_000_000);
    data(await test.call('PUT', `/v1/packages/${capped}`, { token: admin, body: { bandwidth_mbps: 24 } }));
    expect(siteIn(await snapshotOf(test, node), site)?.bandwidth_bps).toBe(3_000_000);

    const pack = data(
      await test.call('POST', '/v1/package-ups', {
        token: admin,
        body: { name: '+8 Mbit/s', kind: 'bandwidth_mbps', amount: 8, price_month: 100 },
      }),
    ).id;
    data(
      await test.call('POST', `/v1/user-package/${pkg.id}/upgrades`, {
        token,
        body: { package_up_id: pack, amount: 1 },
      }),
    );
    expect(siteIn(await snapshotOf(test, node), site)?.bandwidth_bps).toBe(4_000_000);
    // The term ends and auto-renew takes another one from the balance; the pack stays at the old end.
    const end = Date.now() - 1000;
    await test.database.db
      .updateTable('user_packages')
      .set({ end_at: end, auto_renew: 1 })
      .where('id', '=', pkg.id)
      .execute();
    await test.database.db
      .updateTable('user_package_upgrades')
      .set({ end_at: end })
      .where('user_package_id', '=', pkg.id)
      .execute();
    expect(await settleUserPackages(test.database.db)).toMatchObject({ renewed: 1 });
    const renewed = await snapshotOf(test, node);
    expect(siteIn(renewed, site)?.enforcement).toBeUndefined();
    expect(siteIn(renewed, site)?.bandwidth_bps).toBe(3_000_000);
  });
});
