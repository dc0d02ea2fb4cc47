import type { OrderList, PriceQuote, UserPackagePurchase, UserPackageView } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data, ORIGIN } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { openAlipayRecharge } from '../payments/payments.fixtures.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(DIALECTS)('buying packages from the balance on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  const as = (token: string) => (method: Method, url: string, body?: unknown) =>
    test.call(method, url, { token, ...(body !== undefined && { body }) });
  let adminCall: ReturnType<typeof as>;
  let groupId: number;
  let basic: number;

  const userId = async (token: string) => data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
  const balance = async (token: string) =>
    data<{ balance: number }>(await test.call('GET', '/v1/user', { token })).balance;
  const recharge = async (token: string, amount: number) =>
    data(await adminCall('POST', `/v1/user/${await userId(token)}/recharge`, { amount }));
  const newUser = async (name: string, cents: number) => {
    const token = await addUser(test, name);
    if (cents > 0) await recharge(token, cents);
    return token;
  };

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    adminCall = as(admin);
    groupId = data(await adminCall('POST', '/v1/package-groups', { name: 'Standard', sort: 1 })).id;
    basic = data(
      await adminCall('POST', '/v1/packages', {
        name: 'Basic',
        group_id: groupId,
        price_month: 1000,
        price_year: 10000,
        max_sites: 3,
        max_domains: 10,
        traffic_gb: 100,
        on_sale: true,
      }),
    ).id;
  });
  afterAll(() => test.close());

  it('refuses a bad package with the field named, and lists only what is on sale to customers', async () => {
    const noPrice = await adminCall('POST', '/v1/packages', { name: 'Free', on_sale: true });
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.msg).toMatch(/price_month: a package on sale needs a price/);
    const cents = await adminCall('POST', '/v1/packages', { name: 'Frac', price_month: 10.5 });
    expect(cents.status).toBe(400);
    expect(cents.body.msg).toMatch(/price_month/);
    const negative = await adminCall('POST', '/v1/packages', { name: 'Neg', price_month: -1 });
    expect(negative.status).toBe(400);
    const ghostGroup = await adminCall('POST', '/v1/packages', { name: 'G', group_id: 999, price_month: 1 });
    expect(ghostGroup.status).toBe(404);
    expect(ghostGroup.body.msg).toMatch(/group_id: package group 999 does not exist/);
    const hidden = data(await adminCall('POST', '/v1/packages', { name: 'Hidden', price_month: 1 })).id;
    // A null price or stock stays null (not sold for that term; no stock limit), not 0.
    const nulls = data<{ id: number; price_quarter: number | null; stock: number | null }>(
      await adminCall('POST', '/v1/packages', { name: 'Nulls', price_month: 5, price_quarter: null, stock: null }),
    );
    expect(nulls).toMatchObject({ price_quarter: null, stock: null });
    const cleared = data<{ price_month: number | null }>(
      await adminCall('PUT', `/v1/packages/${nulls.id}`, { price_month: null }),
    );
    expect(cleared.price_month).toBeNull();
    data(await adminCall('DELETE', `/v1/packages/${nulls.id}`));
    const open = await adminCall('POST', '/v1/coupons', {
      code: 'OPEN1',
      kind: 'amount',
      value: 1,
      starts_at: null,
      ends_at: null,
    });
    expect(data<{ starts_at: string | null }>(open).starts_at).toBeNull();

    const carol = await newUser('carol', 0);
    const seen = data<{ list: { id: number }[] }>(await test.call('GET', '/v1/packages', { token: carol })).list;
    expect(seen.map((pkg) => pkg.id)).toContain(basic);
    expect(seen.map((pkg) => pkg.id)).not.toContain(hidden);
    expect((await test.call('GET', `/v1/packages/${hidden}`, { token: carol })).status).toBe(404);
    expect((await test.call('POST', '/v1/packages', { token: carol, body: { name: 'x' } })).status).toBe(403);
    expect((await test.call('GET', '/v1/coupons', { token: carol })).status).toBe(403);
    data(await adminCall('DELETE', `/v1/packages/${hidden}`));
  });

  it('quotes with the term discount and a coupon, buys, and records the order and the coupon use', async () => {
    data(await adminCall('POST', '/v1/discounts', { term: 'year', percent: 10 }));
    data(await adminCall('POST', '/v1/discounts', { package_id: basic, term: 'year', percent: 20 }));
    const clash = await adminCall('POST', '/v1/discounts', { package_id: basic, term: 'year', percent: 5 });
    expect(clash.status).toBe(409);
    data(await adminCall('POST', '/v1/coupons', { code: 'save5', kind: 'amount', value: 500, uses_total: 5 }));
    const alice = await newUser('alice', 20_000);
    const call = as(alice);

    const quote = data<{ quote: PriceQuote }>(
      await call('POST', '/v1/user-packages', { package_id: basic, term: 'year', coupon: 'SAVE5', quote: true }),
    ).quote;
    // The package's own 20% wins over the 10% for every package; the coupon comes off after it.
    expect(quote).toMatchObject({
      list_price: 10_000,
      discount_percent: 20,
      discount: 2000,
      coupon_off: 500,
      amount: 7500,
    });
    expect(await balance(alice)).toBe(20_000);

    const bought = data<UserPackageView>(
      await call('POST', '/v1/user-packages', { package_id: basic, term: 'year', coupon: 'save5' }),
    );
    expect(bought).toMatchObject({ package_id: basic, state: 'active', term: 'year', limits: { max_sites: 3 } });
    expect(Date.parse(bought.end_at) - Date.parse(bought.start_at)).toBeGreaterThan(364 * 86_400_000);
    expect(await balance(alice)).toBe(12_500);
    const orders = data<OrderList>(await call('GET', '/v1/orders'));
    expect(orders.list[0]).toMatchObject({
      kind: 'purchase',
      amount: -7500,
      balance_after: 12_500,
      coupon: 'SAVE5',
      user_package_id: bought.id,
    });
    expect(orders.sum_credit).toBe(20_000);
    expect(orders.sum_debit).toBe(7500);
    const history = data<{ list: { code: string; amount_off: number }[] }>(
      await adminCall('GET', '/v1/coupon-historys'),
    );
    expect(history.list[0]).toMatchObject({ code: 'SAVE5', amount_off: 500 });

    // One use per user by default.
    const again = await call('POST', '/v1/user-packages', { package_id: basic, coupon: 'SAVE5', quote: true });
    expect(again.status).toBe(400);
    expect(again.body.msg).toMatch(/coupon: SAVE5 was already used 1 time/);
  });

  it('refuses coupons that do not apply, and charges nothing when the balance is short', async () => {
    const now = Date.now();
    data(
      await adminCall('POST', '/v1/coupons', {
        code: 'OLD1',
        kind: 'percent',
        value: 50,
        ends_at: new Date(now - 60_000).toISOString(),
        starts_at: new Date(now - 120_000).toISOString(),
      }),
    );
    data(await adminCall('POST', '/v1/coupons', { code: 'BIG1', kind: 'amount', value: 100, min_spend: 50_000 }));
    const percent = await adminCall('POST', '/v1/coupons', { code: 'PCT1', kind: 'percent', value: 150 });
    expect(percent.status).toBe(400);
    expect(percent.body.msg).toMatch(/value: a percent coupon takes 1 to 100/);
    const bob = await newUser('bob', 900);
    const call = as(bob);
    const expired = await call('POST', '/v1/user-packages', { package_id: basic, coupon: 'OLD1' });
    expect(expired.body.msg).toMatch(/coupon: OLD1 expired/);
    const small = await call('POST', '/v1/user-packages', { package_id: basic, coupon: 'BIG1' });
    expect(small.body.msg).toMatch(/coupon: BIG1 needs a spend of at least 500.00/);
    const unknown = await call('POST', '/v1/user-packages', { package_id: basic, coupon: 'NOPE' });
    expect(unknown.status).toBe(404);
    const quarter = await call('POST', '/v1/user-packages', { package_id: basic, term: 'quarter' });
    expect(quarter.body.msg).toMatch(/term: package Basic is not sold by the quarter/);

    const short = await call('POST', '/v1/user-packages', { package_id: basic });
    expect(short.status).toBe(402);
    expect(short.body.code).toBe('balance_insufficient');
    expect(short.body.msg).toMatch(/\(9\.00\) does not cover 10\.00/);
    expect(await balance(bob)).toBe(900);
    expect(data<{ total: number }>(await call('GET', '/v1/user-packages')).total).toBe(0);
    expect(data<OrderList>(await call('GET', '/v1/orders')).total).toBe(1); // the recharge only
  });

  it('sells exactly what the balance covers when 50 purchases race', async () => {
    const racer = await newUser('racer', 10_000 + 999);
    const call = as(racer);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call('POST', '/v1/user-packages', { package_id: basic })),
    );
    const bought = results.filter((result) => result.body.code === 0);
    expect(bought).toHaveLength(10);
    expect(results.filter((result) => result.body.code === 'balance_insufficient')).toHaveLength(40);
    expect(await balance(racer)).toBe(999);
    expect(data<{ total: number }>(await call('GET', '/v1/user-packages')).total).toBe(10);
    const orders = data<OrderList>(await call('GET', '/v1/orders?kind=purchase&limit=100'));
    expect(orders.total).toBe(10);
    // Each order carries the balance right after it: ten distinct steps of 10.00 down to 9.99.
    const after = orders.list.map((order) => order.balance_after).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(after).toEqual(Array.from({ length: 10 }, (_, i) => 999 + i * 1000));
  });

  it('stops selling when the stock runs out, even to racing buyers', async () => {
    const limited = data(
      await adminCall('POST', '/v1/packages', { name: 'Limited', price_month: 100, on_sale: true, stock: 3 }),
    ).id;
    const buyers = await Promise.all(['s1', 's2', 's3', 's4', 's5'].map((name) => newUser(name, 1000)));
    const results = await Promise.all(
      buyers.map((token) => test.call('POST', '/v1/user-packages', { token, body: { package_id: limited } })),
    );
    expect(results.filter((result) => result.body.code === 0)).toHaveLength(3);
    expect(results.filter((result) => result.body.code === 'limit_reached')).toHaveLength(2);
    const pkg = data<{ stock: number; sold: number }>(await adminCall('GET', `/v1/packages/${limited}`));
    expect(pkg).toMatchObject({ stock: 0, sold: 3 });
    const refunded = await Promise.all(buyers.map((token) => balance(token)));
    expect(refunded.sort()).toEqual([1000, 1000, 900, 900, 900].sort());
  });

  it('renews from the current end, adds upgrade packs prorated to the end, and lets only admins grant', async () => {
    const dave = await newUser('dave', 50_000);
    const call = as(dave);
    const pkg = data<UserPackageView>(await call('POST', '/v1/user-packages', { package_id: basic }));
    const renewQuote = data<{ quote: PriceQuote }>(
      await call('PUT', `/v1/user-packages/${pkg.id}`, { renew: { term: 'month', terms: 2, quote: true } }),
    ).quote;
    expect(renewQuote.amount).toBe(2000);
    const renewed = data<UserPackageView>(
      await call('PUT', `/v1/user-packages/${pkg.id}`, { renew: { term: 'month', terms: 2 } }),
    );
    const months = (Date.parse(renewed.end_at) - Date.parse(pkg.start_at)) / 86_400_000;
    expect(months).toBeGreaterThanOrEqual(89);
    expect(months).toBeLessThanOrEqual(93);
    expect(await balance(dave)).toBe(47_000);

    const pack = data(
      await adminCall('POST', '/v1/package-ups', { name: '+5 sites', kind: 'max_sites', amount: 5, price_month: 300 }),
    ).id;
    const quote = data<{ days: number; price: number }>(
      await call('GET', `/v1/user-package/${pkg.id}/upgrades/${pack}?amount=2`),
    );
    expect(quote.price).toBe(Math.round((300 * 2 * quote.days) / 30));
    data(await call('POST', `/v1/user-package/${pkg.id}/upgrades`, { package_up_id: pack, amount: 2 }));
    const upgraded = data<UserPackageView>(await call('GET', `/v1/user-packages/${pkg.id}`));
    expect(upgraded.limits.max_sites).toBe(3 + 10);
    expect(await balance(dave)).toBe(47_000 - quote.price);
    data(await call('DELETE', `/v1/user-package/${pkg.id}/upgrades/${pack}`));
    expect(data<UserPackageView>(await call('GET', `/v1/user-packages/${pkg.id}`)).limits.max_sites).toBe(3);

    const grant = await call('POST', '/v1/user-packages', { package_id: basic, user_id: await userId(dave) });
    expect(grant.status).toBe(403);
    const extend = await call('PUT', '/v1/user-packages', { ids: [pkg.id], extend_days: 30 });
    expect(extend.status).toBe(403);
    const eve = await newUser('eve', 0);
    expect((await as(eve)('GET', `/v1/user-packages/${pkg.id}`)).status).toBe(404);
    expect((await as(eve)('PUT', `/v1/user-packages/${pkg.id}`, { auto_renew: true })).status).toBe(404);

    const granted = data<UserPackageView>(
      await adminCall('POST', '/v1/user-packages', { package_id: basic, user_id: await userId(eve) }),
    );
    expect(await balance(eve)).toBe(0);
    data(await adminCall('PUT', '/v1/user-packages', { ids: [granted.id], state: 'suspended' }));
    const listed = data<{ list: UserPackageView[] }>(await as(eve)('GET', '/v1/user-packages')).list;
    expect(listed[0]).toMatchObject({ id: granted.id, state: 'suspended' });
    const missing = await adminCall('PUT', '/v1/user-packages', { ids: [granted.id, 999_999], extend_days: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toMatch(/ids: user package 999999 does not exist/);
  });

  it('carries the packs a renewal left behind to the package’s end: quoted first, and a changed price or a short balance pays nothing', async () => {
    const packer = await newUser('packer', 10_000);
    const call = as(packer);
    const pkg = data<UserPackageView>(await call('POST', '/v1/user-packages', { package_id: basic }));
    const pack = data(
      await adminCall('POST', '/v1/package-ups', { name: '+1 site', kind: 'max_sites', amount: 1, price_month: 300 }),
    ).id;
    data(await call('POST', `/v1/user-package/${pkg.id}/upgrades`, { package_up_id: pack, amount: 2 }));
    const nothing = data(await call('PUT', `/v1/user-package/${pkg.id}/upgrades`, { quote: true }));
    expect(nothing).toMatchObject({ extended: 0, price: 0, quote: true });
    const renewed = data<UserPackageView>(
      await call('PUT', `/v1/user-packages/${pkg.id}`, { renew: { term: 'month', terms: 1 } }),
    );
    const packs = async () =>
      data<{ list: { end_at: string }[] }>(await call('GET', `/v1/user-package/${pkg.id}/upgrades`)).list;
    const packEnd = (await packs())[0]?.end_at;
    expect(Date.parse(packEnd ?? '')).toBeLessThan(Date.parse(renewed.end_at));

    const before = await balance(packer);
    const quote = data<{ extended: number; price: number; balance: number; quote: boolean }>(
      await call('PUT', `/v1/user-package/${pkg.id}/upgrades`, { quote: true }),
    );
    const days = Math.ceil((Date.parse(renewed.end_at) - Date.parse(packEnd ?? '')) / 86_400_000);
    expect(quote).toEqual({ extended: 1, price: Math.round((300 * 2 * days) / 30), balance: before, quote: true });

    const changed = await call('PUT', `/v1/user-package/${pkg.id}/upgrades`, { price: quote.price + 1 });
    expect(changed.body.code).toBe('invalid_param');
    expect(changed.body.msg).toMatch(/^price: the price is now \d+ cents/);
    await test.database.db
      .updateTable('users')
      .set({ balance: quote.price - 1 })
      .where('id', '=', await userId(packer))
      .execute();
    const short = await call('PUT', `/v1/user-package/${pkg.id}/upgrades`, { price: quote.price });
    expect(short.body.code).toBe('balance_insufficient');
    expect(await balance(packer)).toBe(quote.price - 1);
    expect((await packs())[0]?.end_at).toBe(packEnd);

    await recharge(packer, 1);
    const paid = data(await call('PUT', `/v1/user-package/${pkg.id}/upgrades`, { price: quote.price }));
    expect(paid).toEqual({ extended: 1, price: quote.price, balance: 0, quote: false });
    expect((await packs())[0]?.end_at).toBe(renewed.end_at);
    const again = data(await call('PUT', `/v1/user-package/${pkg.id}/upgrades`, {}));
    expect(again).toMatchObject({ extended: 0, price: 0, quote: false });
    expect(await balance(packer)).toBe(0);
  });

  it('lets an admin adjust a balance but never below zero, and counts sales per day', async () => {
    const frank = await newUser('frank', 500);
    const uid = await userId(frank);
    const below = await adminCall('POST', `/v1/user/${uid}/recharge`, { amount: -501 });
    expect(below.status).toBe(402);
    expect(await balance(frank)).toBe(500);
    data(await adminCall('POST', `/v1/user/${uid}/recharge`, { amount: -500, description: 'refund by bank' }));
    expect(await balance(frank)).toBe(0);
    // The orders are the ledger: the account stays (it can be disabled).
    const removed = await adminCall('DELETE', `/v1/users/${uid}`);
    expect(removed.status).toBe(409);
    expect(removed.body.msg).toMatch(/still has 2 orders/);
    const zero = await adminCall('POST', `/v1/user/${uid}/recharge`, { amount: 0 });
    expect(zero.status).toBe(400);
    const ghost = await adminCall('POST', '/v1/user/999999/recharge', { amount: 1 });
    expect(ghost.status).toBe(404);
    expect((await as(frank)('POST', `/v1/user/${uid}/recharge`, { amount: 100 })).status).toBe(403);

    const today = new Date().toISOString().slice(0, 10);
    const sold = data<{ list: { date: string; count: number }[] }>(
      await adminCall('GET', `/v1/package-sold/count?from=${today}&to=${today}`),
    );
    expect(sold.list.at(-1)?.count).toBeGreaterThanOrEqual(15);
    const orders = data<{ list: { date: string; count: number }[] }>(
      await adminCall('GET', `/v1/order/count?from=${today}&to=${today}`),
    );
    expect(orders.list.at(-1)?.count).toBeGreaterThan(sold.list.at(-1)?.count ?? 0);
  });

  it('counts sites, domains and streams against the package and refuses past its limits, naming them', async () => {
    const site = (token: string, domains: string[], extra: Record<string, unknown> = {}) =>
      test.call('POST', '/v1/sites', { token, body: { domains, origins: [ORIGIN], ...extra } });
    const hank = await newUser('hank', 100_000);
    const call = as(hank);
    // No package yet (require_package is off here): the site counts against none until one is bought.
    const loose = data<{ id: number }>(await site(hank, ['loose.example.test'])).id;
    const pkg = data<UserPackagePurchase>(await call('POST', '/v1/user-packages', { package_id: basic }));
    expect(pkg.attached).toEqual({ sites: 1, streams: 0 });
    for (const name of ['a', 'b']) data(await site(hank, [`${name}.example.test`]));
    const fourth = await site(hank, ['d.example.test']);
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ code: 'limit_reached' });
    expect(fourth.body.msg).toBe('user_package_id: package Basic allows 3 sites; 3 are used');
    const used = data<UserPackageView>(await call('GET', `/v1/user-packages/${pkg.id}`)).used;
    expect(used).toEqual({ sites: 3, domains: 3, streams: 0 });

    // Domains: 10 allowed, 3 used; a site grown by 8 more is refused and keeps its domains.
    const [first] = data<{ list: { id: number }[] }>(await call('GET', '/v1/sites?limit=1')).list;
    const grown = Array.from({ length: 9 }, (_, i) => `g${i}.example.test`);
    const refused = await call('PUT', `/v1/sites/${first?.id}`, { domains: grown });
    expect(refused.body.msg).toBe('user_package_id: package Basic allows 10 domains; 3 are used');
    expect(data<UserPackageView>(await call('GET', `/v1/user-packages/${pkg.id}`)).used.domains).toBe(3);

    // Streams: Basic allows none.
    const stream = await call('POST', '/v1/streams', { listen_port: 30_901, protocol: 'tcp', origins: [ORIGIN] });
    expect(stream.body.msg).toBe('user_package_id: package Basic allows 0 streams; 0 are used');

    // A second active package: the site must say which one it counts against.
    const second = data<UserPackageView>(await call('POST', '/v1/user-packages', { package_id: basic }));
    const which = await site(hank, ['e.example.test']);
    expect(which.body.msg).toMatch(/user_package_id: you have 2 active packages/);
    data(await site(hank, ['e.example.test'], { user_package_id: second.id }));
    const eve = await newUser('ivan', 0);
    const foreign = await site(eve, ['f.example.test'], { user_package_id: second.id });
    expect(foreign.status).toBe(404);
    expect(loose).toBeGreaterThan(0);
  });

  it('closes a pending recharge order, which can then be deleted; paid orders stay', async () => {
    const gina = await newUser('gina', 100);
    const call = as(gina);
    const order = await openAlipayRecharge(test, admin, gina, 1000);
    expect(order.state).toBe('pending');
    expect(order.out_trade_no).toMatch(/^[0-9a-z]{32}$/);
    const paid = data<OrderList>(await call('GET', '/v1/orders?state=paid')).list[0];
    expect((await call('DELETE', `/v1/orders/${paid?.id}`)).status).toBe(409);
    expect((await call('DELETE', `/v1/orders/${order.id}`)).status).toBe(409);
    data(await call('PUT', `/v1/orders/${order.id}`, { state: 'closed' }));
    expect((await call('PUT', `/v1/orders/${order.id}`, { state: 'closed' })).status).toBe(400);
    data(await call('DELETE', `/v1/orders/${order.id}`));
    expect(await balance(gina)).toBe(100);
  });
});
