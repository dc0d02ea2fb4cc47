import type { OrderList, UserPackageView } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { createSite, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { liveSites } from '../sites/sites.repository.ts';
import { settleUserPackages } from './package-expiry.ts';
import { enforceMonthlyTraffic } from './package-traffic.ts';

describe.each(DIALECTS)('user packages past their end on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let monthly: number;

  const userId = async (token: string) => data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
  const buyer = async (name: string, cents: number) => {
    const token = await addUser(test, name);
    data(
      await test.call('POST', `/v1/user/${await userId(token)}/recharge`, { token: admin, body: { amount: cents } }),
    );
    return token;
  };
  const buy = async (token: string, autoRenew: boolean) =>
    data<UserPackageView>(
      await test.call('POST', '/v1/user-packages', { token, body: { package_id: monthly, auto_renew: autoRenew } }),
    );
  /** Moves a package's end into the past, as time would. */
  const endNow = (id: number, end: number) =>
    test.database.db.updateTable('user_packages').set({ end_at: end }).where('id', '=', id).execute();
  // Served in full (what the snapshot carries for the others: package-enforcement.test.ts).
  const served = async () => (await liveSites(test.database.db)).map((row) => row.id);

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    monthly = data(
      await test.call('POST', '/v1/packages', {
        token: admin,
        body: { name: 'Monthly', price_month: 1000, max_sites: 5, max_domains: 5, on_sale: true },
      }),
    ).id;
  });
  afterAll(() => test.close());

  it('expires a package at its end: its sites stop being served in full at a new config version, and are again on renewal', async () => {
    const ann = await buyer('ann', 1000);
    const pkg = await buy(ann, false);
    const site = await createSite(test, ann, 'ann.example.test');
    expect(await served()).toContain(site);

    const before = await currentConfigVersion(test.database.db);
    const end = Date.now() - 1000;
    await endNow(pkg.id, end);
    expect(await settleUserPackages(test.database.db)).toMatchObject({ expired: 1, renewed: 0 });
    expect(await currentConfigVersion(test.database.db)).toBeGreaterThan(before);
    expect(await served()).not.toContain(site);
    const listed = data<UserPackageView>(await test.call('GET', `/v1/user-packages/${pkg.id}`, { token: ann }));
    expect(listed.state).toBe('expired');
    // A second settlement has nothing left to do.
    expect(await settleUserPackages(test.database.db)).toMatchObject({ expired: 0, renewed: 0 });

    data(await test.call('POST', `/v1/user/${await userId(ann)}/recharge`, { token: admin, body: { amount: 1000 } }));
    const renewing = await test.call('PUT', `/v1/user-packages/${pkg.id}`, {
      token: ann,
      body: { renew: { term: 'month' } },
    });
    expect(data<UserPackageView>(renewing).state).toBe('active');
    expect(await served()).toContain(site);
  });

  it('renews an auto-renewing package from the balance once, and expires it when the balance is short', async () => {
    const ben = await buyer('ben', 2000);
    const pkg = await buy(ben, true);
    await createSite(test, ben, 'ben.example.test');
    const end = Date.now() - 1000;
    await endNow(pkg.id, end);
    const [first, second] = await Promise.all([
      settleUserPackages(test.database.db),
      settleUserPackages(test.database.db),
    ]);
    expect((first?.renewed ?? 0) + (second?.renewed ?? 0)).toBe(1);
    const renewed = data<UserPackageView>(await test.call('GET', `/v1/user-packages/${pkg.id}`, { token: ben }));
    expect(renewed.state).toBe('active');
    expect(Date.parse(renewed.end_at)).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    const orders = data<OrderList>(await test.call('GET', '/v1/orders?kind=renewal', { token: ben }));
    expect(orders.list).toHaveLength(1);
    expect(orders.list[0]).toMatchObject({ amount: -1000, balance_after: 0 });

    await endNow(pkg.id, Date.now() - 1000);
    expect(await settleUserPackages(test.database.db)).toMatchObject({ renewed: 0, expired: 1 });
    expect(data<UserPackageView>(await test.call('GET', `/v1/user-packages/${pkg.id}`, { token: ben })).state).toBe(
      'expired',
    );
  });

  it('stops serving a suspended package’s sites in full, and serves them again when reactivated', async () => {
    const cy = await buyer('cy', 1000);
    const pkg = await buy(cy, false);
    const site = await createSite(test, cy, 'cy.example.test');
    data(await test.call('PUT', '/v1/user-packages', { token: admin, body: { ids: [pkg.id], state: 'suspended' } }));
    expect(await served()).not.toContain(site);
    data(await test.call('PUT', '/v1/user-packages', { token: admin, body: { ids: [pkg.id], state: 'active' } }));
    expect(await served()).toContain(site);
  });

  it('stops serving a package’s sites in full once the month’s traffic passes its own, and again with a traffic pack', async () => {
    const capped = data(
      await test.call('POST', '/v1/packages', {
        token: admin,
        body: { name: 'Capped', price_month: 100, traffic_gb: 1, max_sites: 2, max_domains: 2, on_sale: true },
      }),
    ).id;
    const dee = await buyer('dee', 10_000);
    const pkg = data<UserPackageView>(
      await test.call('POST', '/v1/user-packages', { token: dee, body: { package_id: capped } }),
    );
    const site = await createSite(test, dee, 'dee.example.test');
    const today = Math.floor(Date.now() / 86_400_000) * 86_400;
    const sent = (bytes: number) =>
      test.database.logs
        .insertInto('site_traffic_days')
        .values({
          site_id: site,
          bucket: today,
          requests: 1,
          bytes_in: 0,
          bytes_out: bytes,
          status_2xx: 1,
          status_3xx: 0,
          status_4xx: 0,
          status_5xx: 0,
          cache_hits: 0,
          blocked: 0,
        })
        .execute();
    await sent(400_000_000);
    expect(await enforceMonthlyTraffic(test.database.db, test.database.logs)).toMatchObject({ exceeded: 0 });
    expect(await served()).toContain(site);

    await test.database.logs.deleteFrom('site_traffic_days').where('site_id', '=', site).execute();
    await sent(1_200_000_000);
    const before = await currentConfigVersion(test.database.db);
    expect(await enforceMonthlyTraffic(test.database.db, test.database.logs)).toMatchObject({ exceeded: 1 });
    expect(await currentConfigVersion(test.database.db)).toBeGreaterThan(before);
    expect(await served()).not.toContain(site);
    const view = data<UserPackageView>(await test.call('GET', `/v1/user-packages/${pkg.id}`, { token: dee }));
    expect(view.traffic_exceeded).toBe(true);

    const pack = data(
      await test.call('POST', '/v1/package-ups', {
        token: admin,
        body: { name: '+5 GB', kind: 'traffic_gb', amount: 5, price_month: 100 },
      }),
    ).id;
    data(
      await test.call('POST', `/v1/user-package/${pkg.id}/upgrades`, {
        token: dee,
        body: { package_up_id: pack, amount: 1 },
      }),
    );
    expect(await enforceMonthlyTraffic(test.database.db, test.database.logs)).toMatchObject({ cleared: 1 });
    expect(await served()).toContain(site);
  });

  it('counts the streams’ traffic of the month against the package: past its traffic through streams alone it is exceeded', async () => {
    const capped = data(
      await test.call('POST', '/v1/packages', {
        token: admin,
        body: { name: 'Streams', price_month: 100, traffic_gb: 1, max_sites: 2, max_domains: 2, on_sale: true },
      }),
    ).id;
    const eve = await buyer('eve', 10_000);
    const pkg = data<UserPackageView>(
      await test.call('POST', '/v1/user-packages', { token: eve, body: { package_id: capped } }),
    );
    const stream = await test.database.db
      .insertInto('streams')
      .values({
        user_id: await userId(eve),
        user_package_id: pkg.id,
        group_id: null,
        name: 'game',
        listen_port: 30_960,
        protocol: 'tcp',
        settings: '{}',
        enabled: 1,
        version: 1,
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const today = Math.floor(Date.now() / 86_400_000) * 86_400;
    const streamed = (bucket: number, bytesOut: number, bytesIn = 0) =>
      test.database.logs
        .insertInto('stream_traffic_days')
        .values({
          stream_id: stream.id,
          bucket,
          connections: 1,
          failed: 0,
          bytes_in: bytesIn,
          bytes_out: bytesOut,
          session_ms: 1000,
        })
        .execute();
    const usageOf = (usage: { id: number; sent: number }[]) => usage.find((row) => row.id === pkg.id);
    // Bytes in (from the clients) do not count, and neither does last month.
    await streamed(today, 600_000_000, 5_000_000_000);
    const monthStart = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) / 1000;
    await streamed(monthStart - 86_400, 5_000_000_000);
    const under = await enforceMonthlyTraffic(test.database.db, test.database.logs);
    expect(under).toMatchObject({ exceeded: 0 });
    expect(usageOf(under.usage)).toMatchObject({ sent: 600_000_000, cap: 1_000_000_000 });

    await test.database.logs
      .updateTable('stream_traffic_days')
      .set({ bytes_out: 1_100_000_000 })
      .where('stream_id', '=', stream.id)
      .where('bucket', '=', today)
      .execute();
    const before = await currentConfigVersion(test.database.db);
    const over = await enforceMonthlyTraffic(test.database.db, test.database.logs);
    expect(over).toMatchObject({ exceeded: 1 });
    expect(usageOf(over.usage)).toMatchObject({ sent: 1_100_000_000 });
    expect(await currentConfigVersion(test.database.db)).toBeGreaterThan(before);
    const view = data<UserPackageView>(await test.call('GET', `/v1/user-packages/${pkg.id}`, { token: eve }));
    expect(view.traffic_exceeded).toBe(true);
  });
});
