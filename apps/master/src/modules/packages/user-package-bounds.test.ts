import type { UpgradeQuote, UserPackageView } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const DAY = 86_400_000;
const yearsAhead = (years: number) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString();
};

describe.each(DIALECTS)('user package dates and prices stay in range on $dialect', (target) => {
  let test: TestApp;
  let admin: (method: Method, url: string, body?: unknown) => ReturnType<TestApp['call']>;
  let cheap: number;
  const as = (token: string) => (method: Method, url: string, body?: unknown) =>
    test.call(method, url, { token, ...(body !== undefined && { body }) });
  const userId = async (token: string) => data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
  const balance = async (token: string) =>
    data<{ balance: number }>(await test.call('GET', '/v1/user', { token })).balance;
  const customerWith = async (name: string, cents: number) => {
    const token = await addUser(test, name);
    data(await admin('POST', `/v1/user/${await userId(token)}/recharge`, { amount: cents }));
    return token;
  };
  const stored = (id: number) =>
    test.database.db.selectFrom('user_packages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = as(await test.login('admin', ADMIN_PASSWORD));
    cheap = data(await admin('POST', '/v1/packages', { name: 'Cheap', price_year: 1, max_sites: 1, on_sale: true })).id;
  });
  afterAll(() => test.close());

  it('refuses a renewal past 100 years ahead, naming the field, and charges nothing', async () => {
    const token = await customerWith('renewer', 100);
    const call = as(token);
    const pkg = data<UserPackageView>(
      await call('POST', '/v1/user-packages', { package_id: cheap, term: 'year', terms: 36 }),
    );
    data(await call('PUT', `/v1/user-packages/${pkg.id}`, { renew: { term: 'year', terms: 36 } }));
    const before = await stored(pkg.id);
    const quote = await call('PUT', `/v1/user-packages/${pkg.id}`, { renew: { term: 'year', terms: 36, quote: true } });
    expect(quote.status).toBe(400);
    const past = await call('PUT', `/v1/user-packages/${pkg.id}`, { renew: { term: 'year', terms: 36 } });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('invalid_param');
    expect(past.body.msg).toMatch(/^renew\.terms: a user package ends at most 100 years ahead, by \d{4}-/);
    expect(await stored(pkg.id)).toEqual(before);
    expect(await balance(token)).toBe(100 - 72);
    expect((await call('GET', `/v1/user-packages/${pkg.id}`)).status).toBe(200);
  });

  it('refuses an extension past 100 years ahead for the whole batch, and the package still reads', async () => {
    const token = await addUser(test, 'extended');
    const uid = await userId(token);
    const far = data<UserPackageView>(
      await admin('POST', '/v1/user-packages', { package_id: cheap, user_id: uid, end_at: yearsAhead(90) }),
    );
    const near = data<UserPackageView>(await admin('POST', '/v1/user-packages', { package_id: cheap, user_id: uid }));
    data(await admin('PUT', '/v1/user-packages', { ids: [far.id], extend_days: 3650 }));
    const extended = await stored(far.id);
    expect(extended.end_at).toBe(Date.parse(far.end_at) + 3650 * DAY);

    const again = await admin('PUT', '/v1/user-packages', { ids: [near.id, far.id], extend_days: 3650 });
    expect(again.status).toBe(400);
    expect(again.body.msg).toMatch(new RegExp(`^extend_days: user package ${far.id} would end after \\d{4}-`));
    // All or none: the package that fitted was not extended either.
    expect((await stored(near.id)).end_at).toBe(Date.parse(near.end_at));
    expect((await stored(far.id)).end_at).toBe(extended.end_at);
    const read = data<UserPackageView>(await admin('GET', `/v1/user-packages/${far.id}`));
    expect(read.end_at).toBe(new Date(extended.end_at).toISOString());
    // Shortening stays possible.
    data(await admin('PUT', '/v1/user-packages', { ids: [far.id], extend_days: -3650 }));
  });

  it('refuses an end an admin sets past 100 years ahead or past 9999, naming end_at', async () => {
    const uid = await userId(await addUser(test, 'granted'));
    for (const end_at of ['+275760-09-12T00:00:00.000Z', '9999-12-31T23:59:59Z', yearsAhead(101)]) {
      const grant = await admin('POST', '/v1/user-packages', { package_id: cheap, user_id: uid, end_at });
      expect(grant.status).toBe(400);
      expect(grant.body.msg).toMatch(/^end_at: a user package ends at most 100 years ahead/);
    }
    const pkg = data<UserPackageView>(
      await admin('POST', '/v1/user-packages', { package_id: cheap, user_id: uid, end_at: yearsAhead(99) }),
    );
    const moved = await admin('PUT', `/v1/user-packages/${pkg.id}`, { end_at: '+275760-09-12T00:00:00.000Z' });
    expect(moved.status).toBe(400);
    expect(moved.body.msg).toMatch(/^end_at: /);
    expect((await stored(pkg.id)).end_at).toBe(Date.parse(pkg.end_at));
  });

  it('refuses an upgrade quote or purchase whose price is past exact whole cents, naming amount', async () => {
    const token = await customerWith('upgrader', 100_000_000_000);
    const call = as(token);
    const pkg = data<UserPackageView>(
      await admin('POST', '/v1/user-packages', {
        package_id: cheap,
        user_id: await userId(token),
        end_at: yearsAhead(99),
      }),
    );
    const pack = data(
      await admin('POST', '/v1/package-ups', {
        name: 'Huge',
        kind: 'max_sites',
        amount: 1,
        price_month: 100_000_000_000,
      }),
    ).id;
    const quote = await call('GET', `/v1/user-package/${pkg.id}/upgrades/${pack}?amount=1000`);
    expect(quote.status).toBe(400);
    expect(quote.body.msg).toBe(`amount: the price would be more than ${Number.MAX_SAFE_INTEGER} cents`);
    const bought = await call('POST', `/v1/user-package/${pkg.id}/upgrades`, { package_up_id: pack, amount: 1000 });
    expect(bought.status).toBe(400);
    expect(bought.body.msg).toMatch(/^amount: /);
    expect(await balance(token)).toBe(100_000_000_000);

    // One pack still quotes, to the exact cent.
    const one = data<UpgradeQuote>(await call('GET', `/v1/user-package/${pkg.id}/upgrades/${pack}?amount=1`));
    expect(BigInt(one.price)).toBe((100_000_000_000n * BigInt(one.days) * 2n + 30n) / 60n);
  });

  it('lists a row stored out of range, clamped, for the admin and its owner alike', async () => {
    const token = await addUser(test, 'outofrange');
    const now = Date.now();
    const row = await test.database.db
      .insertInto('user_packages')
      .values({
        user_id: await userId(token),
        package_id: cheap,
        name: 'Broken',
        term: 'year',
        state: 'active',
        auto_renew: 0,
        start_at: now,
        end_at: 9_000_000_000_000_000,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const listed = data<{ list: UserPackageView[] }>(await admin('GET', '/v1/user-packages?limit=3'));
    expect(listed.list.find((entry) => entry.id === row.id)?.end_at).toBe('9999-12-31T23:59:59.000Z');
    const own = data<{ list: UserPackageView[] }>(await as(token)('GET', '/v1/user-packages'));
    expect(own.list.map((entry) => entry.id)).toEqual([row.id]);
    expect(data<UserPackageView>(await as(token)('GET', `/v1/user-packages/${row.id}`)).end_at).toBe(
      '9999-12-31T23:59:59.000Z',
    );
    data(await as(token)('GET', `/v1/user-package/${row.id}/upgrades`));
    // A renewal of it is refused, not a 500.
    const renewed = await as(token)('PUT', `/v1/user-packages/${row.id}`, { renew: { term: 'year', terms: 1 } });
    expect(renewed.status).toBe(400);
    expect(renewed.body.msg).toMatch(/^renew\.terms: /);
  });
});
