import { PERMISSIONS, type Permission, type UserPackageView } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashPassword } from '../auth/passwords.ts';
import { insertUser } from '../users/users.repository.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

describe.each(DIALECTS)('who may change user packages on $dialect', (target) => {
  let test: TestApp;
  let root: string;
  let nodeAdmin: string;
  let packageAdmin: string;
  let customer: string;
  let premium: number;
  let hidden: number;
  const as = (token: string) => (method: Method, url: string, body?: unknown) =>
    test.call(method, url, { token, ...(body !== undefined && { body }) });
  const userId = async (token: string) => data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
  const subAdmin = async (username: string, access: Permission[]) => {
    const passwordHash = await hashPassword(`${username}-pass`);
    await insertUser(test.database.db, { username, passwordHash, type: 1, access }, Date.now());
    return test.login(username, `${username}-pass`);
  };
  const stored = (id: number) =>
    test.database.db.selectFrom('user_packages').selectAll().where('id', '=', id).executeTakeFirst();

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    root = await test.login('admin', ADMIN_PASSWORD);
    nodeAdmin = await subAdmin('nodes', [PERMISSIONS.adminNode]);
    packageAdmin = await subAdmin('seller', [PERMISSIONS.adminPackage]);
    customer = await addUser(test, 'payer');
    premium = data(
      await as(root)('POST', '/v1/packages', { name: 'Premium', price_month: 100_000, max_sites: 5, on_sale: true }),
    ).id;
    hidden = data(await as(root)('POST', '/v1/packages', { name: 'Hidden', price_month: 1 })).id;
    data(await as(root)('POST', `/v1/user/${await userId(customer)}/recharge`, { amount: 100_000 }));
  });
  afterAll(() => test.close());

  it('keeps a sub-admin without admin:package off every grant, extension, suspension, end and deletion', async () => {
    const paid = data<UserPackageView>(await as(customer)('POST', '/v1/user-packages', { package_id: premium }));
    const call = as(nodeAdmin);
    const self = await userId(nodeAdmin);

    const grant = await call('POST', '/v1/user-packages', {
      package_id: premium,
      user_id: self,
      end_at: '2036-01-01T00:00:00Z',
    });
    expect(grant.status).toBe(403);
    expect(grant.body.msg).toBe('user_id and end_at: this needs the admin:package permission');
    const suspend = await call('PUT', '/v1/user-packages', { ids: [paid.id], state: 'suspended' });
    expect(suspend.status).toBe(403);
    const shorten = await call('PUT', '/v1/user-packages', { ids: [paid.id], extend_days: -3650 });
    expect(shorten.status).toBe(403);
    const end = await call('PUT', `/v1/user-packages/${paid.id}`, { end_at: '2020-01-01T00:00:00Z' });
    expect([403, 404]).toContain(end.status);
    const removed = await call('DELETE', `/v1/user-packages/${paid.id}`);
    expect(removed.status).toBe(403);
    expect(removed.body.msg).toBe('this needs the admin:package permission');

    // Nor does it see the customer's package: its scope is its own rows.
    expect((await call('GET', `/v1/user-packages/${paid.id}`)).status).toBe(404);
    expect(data<{ total: number }>(await call('GET', '/v1/user-packages')).total).toBe(0);
    expect(
      data<{ total: number }>(await call('GET', `/v1/user-packages?user_id=${await userId(customer)}`)).total,
    ).toBe(0);
    expect((await call('GET', `/v1/user-package/${paid.id}/usage`)).status).toBe(404);
    expect((await call('GET', `/v1/monitor/usage?user_id=${await userId(customer)}`)).status).toBe(403);
    expect((await call('GET', '/v1/monitor/user-package')).status).toBe(403);

    // Nothing changed: the customer's package as paid, and no package for the sub-admin.
    expect(await stored(paid.id)).toMatchObject({ state: 'active', end_at: Date.parse(paid.end_at) });
    const own = await test.database.db.selectFrom('user_packages').select('id').where('user_id', '=', self).execute();
    expect(own).toEqual([]);
  });

  it('keeps a sub-admin without admin:package from changing the end or state of its own package', async () => {
    const self = await userId(nodeAdmin);
    const mine = data<UserPackageView>(
      await as(packageAdmin)('POST', '/v1/user-packages', { package_id: premium, user_id: self }),
    );
    const call = as(nodeAdmin);
    expect((await call('GET', `/v1/user-packages/${mine.id}`)).status).toBe(200);
    const later = await call('PUT', `/v1/user-packages/${mine.id}`, { end_at: '2036-01-01T00:00:00Z' });
    expect(later.status).toBe(403);
    expect(later.body.msg).toBe('end_at and state: this needs the admin:package permission');
    expect((await call('PUT', '/v1/user-packages', { ids: [mine.id], extend_days: 3650 })).status).toBe(403);
    expect(await stored(mine.id)).toMatchObject({ end_at: Date.parse(mine.end_at) });
    // What an owner may do on its own package, it may.
    data(await call('PUT', '/v1/user-packages', { ids: [mine.id], auto_renew: true }));
    data(await call('PUT', `/v1/user-packages/${mine.id}`, { name: 'mine' }));
  });

  it('lets an admin holding admin:package grant, extend, suspend, end and delete any user package', async () => {
    const customerId = await userId(customer);
    const call = as(packageAdmin);
    const granted = data<UserPackageView>(
      await call('POST', '/v1/user-packages', {
        package_id: premium,
        user_id: customerId,
        end_at: '2036-01-01T00:00:00Z',
      }),
    );
    expect(granted).toMatchObject({ user_id: customerId, end_at: '2036-01-01T00:00:00.000Z' });
    data(await call('PUT', '/v1/user-packages', { ids: [granted.id], extend_days: 1, state: 'suspended' }));
    expect(await stored(granted.id)).toMatchObject({
      state: 'suspended',
      end_at: Date.parse('2036-01-02T00:00:00Z'),
    });
    const ended = data<UserPackageView>(
      await call('PUT', `/v1/user-packages/${granted.id}`, { end_at: '2030-01-01T00:00:00Z', state: 'active' }),
    );
    expect(ended).toMatchObject({ end_at: '2030-01-01T00:00:00.000Z', state: 'active' });
    const listed = data<{ list: UserPackageView[] }>(await call('GET', `/v1/user-packages?user_id=${customerId}`));
    expect(listed.list.map((row) => row.id)).toContain(granted.id);
    data(await call('GET', `/v1/user-package/${granted.id}/usage`));
    data(await call('DELETE', `/v1/user-packages/${granted.id}`));
    expect(await stored(granted.id)).toBeUndefined();
  });

  it('shows the whole catalogue and its writes only to admin:package; others read what is on sale to them', async () => {
    const ids = async (token: string) =>
      data<{ list: { id: number }[] }>(await test.call('GET', '/v1/packages', { token })).list.map((pkg) => pkg.id);
    expect(await ids(nodeAdmin)).toContain(premium);
    expect(await ids(nodeAdmin)).not.toContain(hidden);
    expect((await as(nodeAdmin)('GET', `/v1/packages/${hidden}`)).status).toBe(404);
    expect(await ids(packageAdmin)).toContain(hidden);

    const created = await as(nodeAdmin)('POST', '/v1/packages', { name: 'Free', price_month: 0, on_sale: true });
    expect(created.status).toBe(403);
    expect((await as(nodeAdmin)('PUT', `/v1/packages/${premium}`, { price_month: 0 })).status).toBe(403);
    expect((await as(nodeAdmin)('POST', '/v1/coupons', { code: 'FREE9', kind: 'percent', value: 100 })).status).toBe(
      403,
    );
    expect((await as(nodeAdmin)('GET', '/v1/coupons')).status).toBe(403);
    expect(
      (await as(customer)('POST', '/v1/package-ups', { name: 'x', kind: 'max_sites', amount: 1, price_month: 0 }))
        .status,
    ).toBe(403);
    data(await as(packageAdmin)('PUT', `/v1/packages/${hidden}`, { description: 'still hidden' }));
    expect(data<{ price_month: number }>(await as(root)('GET', `/v1/packages/${premium}`)).price_month).toBe(100_000);
  });
});
