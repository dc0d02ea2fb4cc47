import type { AdminOverview, CountSeries, UserOverview } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCert } from '../../test/certs.ts';
import { LOG_STORES, logStoreEnv } from '../../test/clickhouse.ts';
import { acceptedNode, createSite, data, logLine, ORIGIN, shipLogs } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const DAY_MS = 86_400_000;
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(LOG_STORES)('overviews on $store', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  let admin: string;
  let shop: number;
  let blog: number;
  let bobs: number;
  let today: number;
  let twoDaysAgo: number;
  beforeEach(async () => {
    test = await startTestApp(target, { env: logStoreEnv(target) });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
    admin = await test.login('admin', ADMIN_PASSWORD);
    shop = await createSite(test, alice, 'shop.example.com');
    blog = await createSite(test, alice, 'blog.example.com');
    bobs = await createSite(test, bob, 'bob.example.com');
    data(
      await test.call('POST', '/v1/streams', {
        token: alice,
        body: { listen_port: 3306, protocol: 'tcp', origins: [ORIGIN] },
      }),
    );
    // A self-signed certificate of 30 days: it expires within the overview's 30 days.
    data(
      await test.call('POST', '/v1/certs', { token: alice, body: { ...makeCert(['shop.example.com']), name: 'shop' } }),
    );
    const node = await acceptedNode(test);
    const now = Date.now();
    today = Math.floor(now / DAY_MS) * DAY_MS;
    // Within today (UTC) but not in the future.
    const at = Math.max(today, now - 60_000) / 1000;
    twoDaysAgo = today - 2 * DAY_MS;
    await shipLogs(test, node, 1, [
      logLine({ site_id: shop, time: at, bytes_sent: 1000 }),
      logLine({ site_id: shop, time: at, bytes_sent: 500, status: 403, block_reason: 'kind=acl;action=deny' }),
      logLine({ site_id: blog, time: at, bytes_sent: 300, cache_status: 'HIT' }),
      logLine({ site_id: bobs, time: at, bytes_sent: 99 }),
      logLine({ site_id: shop, time: (twoDaysAgo + 3_600_000) / 1000, bytes_sent: 7000 }),
    ]);
  });
  afterEach(async () => {
    await test.close();
  });

  it("shows the admin the fleet, the counts, today's traffic, its trend and top sites", async () => {
    const overview = data<AdminOverview>(await test.call('GET', '/v1/admin/overview', { token: admin }));
    expect(overview).toMatchObject({
      nodes: { total: 1, online: 1, offline: 0 },
      sites: 3,
      streams: 1,
      users: 2,
      new_users_today: 2,
      packages_sold_today: 0,
      orders_today: 0,
      today: { requests: 4, bytes_out: 1899, blocked: 1, cache_hits: 1, bytes_in: 200 },
    });
    const trend = overview.trend ?? [];
    expect(trend).toHaveLength(14);
    expect(trend.at(-1)).toMatchObject({ date: date(today), requests: 4, bytes_out: 1899 });
    expect(trend.at(-3)).toMatchObject({ date: date(twoDaysAgo), requests: 1, bytes_out: 7000 });
    expect(trend.at(-2)).toMatchObject({ requests: 0 });
    expect(overview.top_sites?.map((site) => [site.domain, site.bytes_out, site.requests])).toEqual([
      ['shop.example.com', 1500, 2],
      ['blog.example.com', 300, 1],
      ['bob.example.com', 99, 1],
    ]);
  });

  it('shows a user only their own sites, streams, certificates and traffic', async () => {
    const own = data<UserOverview>(await test.call('GET', '/v1/user/overview', { token: alice }));
    expect(own).toMatchObject({
      sites: 2,
      streams: 1,
      certs: 1,
      certs_expiring: 1,
      today: { requests: 3, bytes_out: 1800, blocked: 1 },
    });
    expect(own.certs_expiring_list.map((cert) => cert.name)).toEqual(['shop']);
    const sameMonth = date(twoDaysAgo).slice(0, 7) === date(today).slice(0, 7);
    expect(own.month).toEqual({ bytes_out: 1800 + (sameMonth ? 7000 : 0), requests: 3 + (sameMonth ? 1 : 0) });
    expect(own.trend.at(-3)).toMatchObject({ bytes_out: 7000 });

    const bobs = data<UserOverview>(await test.call('GET', '/v1/user/overview', { token: bob }));
    expect(bobs).toMatchObject({
      sites: 1,
      streams: 0,
      certs: 0,
      certs_expiring: 0,
      today: { requests: 1, bytes_out: 99 },
    });
    expect(bobs.trend.at(-3)).toMatchObject({ bytes_out: 0 });
  });

  it('counts new users per day, and packages sold and orders as zero until they exist', async () => {
    const range = `from=${date(today - DAY_MS)}&to=${date(today)}`;
    const newUsers = data<CountSeries>(await test.call('GET', `/v1/new-user/count?${range}`, { token: admin }));
    expect(newUsers).toEqual({
      from: date(today - DAY_MS),
      to: date(today),
      total: 2,
      list: [
        { date: date(today - DAY_MS), count: 0 },
        { date: date(today), count: 2 },
      ],
    });
    const month = data<CountSeries>(await test.call('GET', '/v1/new-user/count', { token: admin }));
    expect(month.list).toHaveLength(30);
    expect(month.total).toBe(2);
    for (const path of ['/v1/package-sold/count', '/v1/order/count']) {
      const zero = data<CountSeries>(await test.call('GET', `${path}?${range}`, { token: admin }));
      const sums = path === '/v1/order/count' ? { amount: 0, by_channel: {} } : {};
      expect(zero, path).toEqual({
        from: date(today - DAY_MS),
        to: date(today),
        total: 0,
        ...sums,
        list: [
          { date: date(today - DAY_MS), count: 0, ...sums },
          { date: date(today), count: 0, ...sums },
        ],
      });
      const reversed = await test.call('GET', `${path}?from=${date(today)}&to=${date(today - DAY_MS)}`, {
        token: admin,
      });
      expect(reversed.body, path).toMatchObject({ code: 'invalid_param', msg: 'to: must not be before from' });
    }
  });

  it('counts paid orders by the day they were paid, with their sums per channel, of one kind or all', async () => {
    const owner = data<{ id: number }>(await test.call('GET', '/v1/user', { token: alice })).id;
    const order = (kind: string, channel: string, amount: number, createdAt: number, paidAt: number | null) => ({
      user_id: owner,
      kind,
      channel,
      state: paidAt === null ? 'pending' : 'paid',
      amount,
      balance_after: null,
      user_package_id: null,
      coupon_id: null,
      out_trade_no: `t-${kind}-${channel}-${amount}-${createdAt}`,
      provider_txn_id: null,
      created_at: createdAt,
      paid_at: paidAt,
    });
    const yesterday = today - DAY_MS;
    await test.database.db
      .insertInto('orders')
      .values([
        // Opened yesterday, paid today: today's.
        order('recharge', 'wxpay', 5000, yesterday + 3_600_000, today + 60_000),
        order('recharge', 'alipay', 2000, today + 1000, today + 2000),
        order('recharge', 'admin', 300, yesterday + 1000, yesterday + 1000),
        order('purchase', 'balance', -1000, today + 5000, today + 5000),
        // Never paid: not counted.
        order('recharge', 'wxpay', 9900, today + 6000, null),
      ])
      .execute();
    const range = `from=${date(yesterday)}&to=${date(today)}`;
    const recharges = data(await test.call('GET', `/v1/order/count?${range}&kind=recharge`, { token: admin }));
    expect(recharges).toEqual({
      from: date(yesterday),
      to: date(today),
      total: 3,
      amount: 7300,
      by_channel: { wxpay: 5000, alipay: 2000, admin: 300 },
      list: [
        { date: date(yesterday), count: 1, amount: 300, by_channel: { admin: 300 } },
        { date: date(today), count: 2, amount: 7000, by_channel: { wxpay: 5000, alipay: 2000 } },
      ],
    });
    const all = data<{ total: number; amount: number; by_channel: Record<string, number> }>(
      await test.call('GET', `/v1/order/count?${range}`, { token: admin }),
    );
    expect(all).toMatchObject({ total: 4, amount: 6300, by_channel: { balance: -1000, wxpay: 5000 } });
    const home = data<AdminOverview>(await test.call('GET', '/v1/admin/overview', { token: admin }));
    expect(home.orders_today).toBe(3);
    const unknown = await test.call('GET', `/v1/order/count?${range}&kind=gift`, { token: admin });
    expect(unknown.body).toMatchObject({ code: 'invalid_param' });
    expect(unknown.body.msg).toContain('kind');
  });

  it('shows a sub-admin only the figures of the areas it holds', async () => {
    const staff = async (username: string, access: string[]) => {
      const body = { username, password: `${username}-pass`, type: 1, access };
      data(await test.call('POST', '/v1/users', { token: admin, body }));
      return test.login(username, `${username}-pass`);
    };
    const nodeAdmin = await staff('ops', ['admin:node']);
    const overview = data<AdminOverview>(await test.call('GET', '/v1/admin/overview', { token: nodeAdmin }));
    expect(overview).toEqual({
      nodes: { total: 1, online: 1, offline: 0 },
      sites: null,
      streams: null,
      users: null,
      new_users_today: null,
      packages_sold_today: null,
      orders_today: null,
      today: expect.objectContaining({ requests: 4, bytes_out: 1899 }),
      trend: expect.any(Array),
      top_sites: null,
    });
    for (const path of ['/v1/new-user/count', '/v1/package-sold/count', '/v1/order/count']) {
      expect((await test.call('GET', path, { token: nodeAdmin })).body.code, path).toBe('forbidden');
    }
    const finance = await staff('cashier', ['admin:finance']);
    const figures = data<AdminOverview>(await test.call('GET', '/v1/admin/overview', { token: finance }));
    expect(figures).toMatchObject({
      nodes: null,
      users: null,
      packages_sold_today: null,
      orders_today: 0,
      today: null,
    });
    expect((await test.call('GET', '/v1/order/count', { token: finance })).body.code).toBe(0);
    expect((await test.call('GET', '/v1/new-user/count', { token: finance })).body.code).toBe('forbidden');
  });

  it('refuses the admin calls to users', async () => {
    for (const path of ['/v1/admin/overview', '/v1/new-user/count', '/v1/package-sold/count', '/v1/order/count']) {
      const refused = await test.call('GET', path, { token: bob });
      expect(refused.body, path).toMatchObject({ code: 'forbidden', msg: 'this needs an administrator' });
    }
  });
});
