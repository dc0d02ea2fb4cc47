import type { UserPackagePurchase, UserPackageStanding, UserPackageView } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data, ORIGIN } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, type CallResult, startTestApp, type TestApp } from '../../test/test-app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const BUSINESS = '/v1/configs/global-0-system-business';

describe.each(DIALECTS)('sites and streams need an active package on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let small: number;
  let roomy: number;
  let port = 20_000;
  const as = (token: string) => (method: Method, url: string, body?: unknown) =>
    test.call(method, url, { token, ...(body !== undefined && { body }) });
  const userId = async (token: string) => data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
  const site = (token: string, domain: string, extra: Record<string, unknown> = {}) =>
    as(token)('POST', '/v1/sites', { domains: [domain], origins: [ORIGIN], ...extra });
  const stream = (token: string, extra: Record<string, unknown> = {}) => {
    port += 1;
    return as(token)('POST', '/v1/streams', {
      listen_port: port,
      protocol: 'tcp',
      origins: [{ address: '10.0.0.53', port: 3306, weight: 1, backup: false }],
      ...extra,
    });
  };
  const standing = async (token: string) =>
    data<UserPackageStanding>(await as(token)('GET', '/v1/user-packages/standing'));
  const refused = (result: CallResult) => {
    expect(result.status).toBe(403);
    expect(result.body).toEqual({
      code: 'package_required',
      msg: 'an active package is needed to create a site or stream; buy one first',
      data: null,
      params: {},
    });
  };
  const customerWith = async (name: string, cents: number) => {
    const token = await addUser(test, name);
    if (cents > 0) data(await as(admin)('POST', `/v1/user/${await userId(token)}/recharge`, { amount: cents }));
    return token;
  };
  const setRequired = async (on: boolean) => data(await as(admin)('PUT', BUSINESS, { require_package: on }));

  beforeAll(async () => {
    test = await startTestApp(target, { background: false, requirePackage: true });
    admin = await test.login('admin', ADMIN_PASSWORD);
    small = data(
      await as(admin)('POST', '/v1/packages', {
        name: 'Small',
        price_month: 1000,
        max_sites: 1,
        max_domains: 5,
        max_streams: 1,
        max_ports: 1,
        on_sale: true,
      }),
    ).id;
    roomy = data(
      await as(admin)('POST', '/v1/packages', {
        name: 'Roomy',
        price_month: 1000,
        max_sites: 10,
        max_domains: 20,
        max_streams: 5,
        max_ports: 5,
        on_sale: true,
      }),
    ).id;
  });
  afterAll(() => test.close());

  it('refuses a customer without a package, on every path that creates a site or a stream', async () => {
    const dora = await customerWith('dora', 0);
    refused(await site(dora, 'dora.example.com'));
    refused(await stream(dora));
    // An admin creating for the customer meets the owner's rule.
    const doraId = await userId(dora);
    refused(await site(admin, 'for-dora.example.com', { user_id: doraId }));
    refused(await stream(admin, { user_id: doraId }));
    expect(await standing(dora)).toEqual({
      required: true,
      exempt: false,
      unlimited: false,
      active: 0,
      unattached: { sites: 0, streams: 0 },
    });
    // Nothing was written.
    const sites = await test.database.db.selectFrom('sites').select('id').where('user_id', '=', doraId).execute();
    expect(sites).toEqual([]);
  });

  it('refuses a customer whose only package is suspended or expired', async () => {
    const erin = await customerWith('erin', 5000);
    const bought = data<UserPackageView>(await as(erin)('POST', '/v1/user-packages', { package_id: roomy }));
    data(await as(erin)('POST', '/v1/sites', { domains: ['erin.example.com'], origins: [ORIGIN] }));
    data(await as(admin)('PUT', '/v1/user-packages', { ids: [bought.id], state: 'suspended' }));
    refused(await site(erin, 'erin2.example.com'));
    refused(await stream(erin));
    data(await as(admin)('PUT', '/v1/user-packages', { ids: [bought.id], state: 'active' }));
    await test.database.db
      .updateTable('user_packages')
      .set({ end_at: Date.now() - 1000 })
      .where('id', '=', bought.id)
      .execute();
    refused(await site(erin, 'erin3.example.com'));
    expect((await standing(erin)).active).toBe(0);
  });

  it('lets an exempt customer, an admin, and anyone once the setting is off create without a package', async () => {
    const fred = await customerWith('fred', 0);
    const fredId = await userId(fred);
    data(await as(admin)('PUT', `/v1/users/${fredId}`, { package_exempt: true }));
    data(await site(fred, 'fred.example.com'));
    data(await stream(fred));
    expect(await standing(fred)).toEqual({
      required: false,
      exempt: true,
      unlimited: true,
      active: 0,
      unattached: { sites: 1, streams: 1 },
    });

    data(await site(admin, 'operator.example.com'));
    data(await stream(admin));
    expect(await standing(admin)).toMatchObject({ required: false, exempt: false, unlimited: true });

    const gail = await customerWith('gail', 0);
    refused(await site(gail, 'gail.example.com'));
    await setRequired(false);
    try {
      data(await site(gail, 'gail.example.com'));
      expect(await standing(gail)).toMatchObject({ required: false, exempt: false, unlimited: true });
    } finally {
      await setRequired(true);
    }
  });

  it('attaches the sites and streams without a package to the one a customer buys, and counts them', async () => {
    const hana = await customerWith('hana', 5000);
    const hanaId = await userId(hana);
    data(await as(admin)('PUT', `/v1/users/${hanaId}`, { package_exempt: true }));
    data(await site(hana, 'a.hana.example.com'));
    data(await site(hana, 'b.hana.example.com'));
    data(await stream(hana));
    data(await as(admin)('PUT', `/v1/users/${hanaId}`, { package_exempt: false }));
    expect((await standing(hana)).unattached).toEqual({ sites: 2, streams: 1 });

    const bought = data<UserPackagePurchase>(await as(hana)('POST', '/v1/user-packages', { package_id: roomy }));
    expect(bought).toMatchObject({
      package_id: roomy,
      attached: { sites: 2, streams: 1 },
      not_attached: { sites: [], streams: [] },
      used: { sites: 2, domains: 2, streams: 1 },
    });
    // The order names the package, for clients that word it in their own language.
    const orders = data<{ list: { kind: string; channel: string; package_name: string | null }[] }>(
      await as(hana)('GET', '/v1/orders'),
    ).list;
    expect(orders[0]).toMatchObject({ kind: 'purchase', channel: 'balance', package_name: 'Roomy' });
    const mine = data<{ list: UserPackageView[] }>(await as(hana)('GET', '/v1/user-packages')).list;
    expect(mine[0]?.used).toEqual({ sites: 2, domains: 2, streams: 1 });
    expect(await standing(hana)).toMatchObject({ required: true, active: 1, unattached: { sites: 0, streams: 0 } });
    // Now a package is active, the customer creates within it.
    data(await site(hana, 'c.hana.example.com'));
  });

  it('names what does not fit a package too small for the sites and streams without one', async () => {
    const ivan = await customerWith('ivan', 5000);
    const ivanId = await userId(ivan);
    data(await as(admin)('PUT', `/v1/users/${ivanId}`, { package_exempt: true }));
    data(await site(ivan, 'one.ivan.example.com'));
    data(await site(ivan, 'two.ivan.example.com'));
    data(await stream(ivan, { name: 'db' }));
    data(await stream(ivan));
    const lastPort = port;
    data(await as(admin)('PUT', `/v1/users/${ivanId}`, { package_exempt: false }));

    const bought = data<UserPackagePurchase>(await as(ivan)('POST', '/v1/user-packages', { package_id: small }));
    expect(bought.attached).toEqual({ sites: 1, streams: 1 });
    expect(bought.not_attached).toEqual({ sites: ['two.ivan.example.com'], streams: [`tcp/${lastPort}`] });
    expect(bought.used).toEqual({ sites: 1, domains: 1, streams: 1 });
    expect((await standing(ivan)).unattached).toEqual({ sites: 1, streams: 1 });
    // The package is full: the limit comes back with its figures.
    const full = await site(ivan, 'three.ivan.example.com');
    expect(full.status).toBe(403);
    expect(full.body).toMatchObject({
      code: 'limit_reached',
      params: { limit: 'sites', allowed: 1, used: 1, package: 'Small' },
    });
  });

  it('names the balance, the price and what is missing when the balance is short', async () => {
    const jack = await customerWith('jack', 250);
    const short = await as(jack)('POST', '/v1/user-packages', { package_id: small });
    expect(short.status).toBe(402);
    expect(short.body).toMatchObject({
      code: 'balance_insufficient',
      params: { balance: '2.50', price: '10.00', short: '7.50' },
    });
  });
});
