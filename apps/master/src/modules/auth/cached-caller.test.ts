import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { credit, debit } from '../billing/ledger.ts';

// A signed-in call reads its caller from the session cache (no query): every write that changes what
// a call may do or shows must reach the next call on this master at once, cached or not.
describe.each(DIALECTS)('the cached caller on $dialect', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target);
  });
  afterEach(async () => {
    await test.close();
  });

  const userId = async (username: string) =>
    (await test.database.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow())
      .id;

  it('shows a credit and a debit of the balance on the next call', async () => {
    const token = await addUser(test, 'alice');
    const balance = async () => data<{ balance: number }>(await test.call('GET', '/v1/user', { token })).balance;
    expect(await balance()).toBe(0); // the session is cached from here on
    const id = await userId('alice');
    const entry = { kind: 'adjustment', channel: 'admin', description: 'test' } as const;
    await test.database.db.transaction().execute((trx) => credit(trx, id, 1250, entry));
    expect(await balance()).toBe(1250);
    await test.database.db.transaction().execute((trx) => debit(trx, id, 250, entry));
    expect(await balance()).toBe(1000);
  });

  it("takes an administrator's codes away on the next call", async () => {
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const created = await test.call('POST', '/v1/users', {
      token: admin,
      body: { username: 'ops', password: 'ops-pass-123', type: 1, access: ['admin:node'] },
    });
    expect(created.body.code).toBe(0);
    const ops = await test.login('ops', 'ops-pass-123');
    expect((await test.call('GET', '/v1/nodes', { token: ops })).status).toBe(200); // cached
    const id = await userId('ops');
    expect((await test.call('PUT', `/v1/users/${id}`, { token: admin, body: { access: [] } })).body.code).toBe(0);
    expect((await test.call('GET', '/v1/nodes', { token: ops })).status).toBe(403);
  });

  it('refuses a disabled user and a signed-out session on the next call', async () => {
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const token = await addUser(test, 'bob');
    const other = await test.login('bob', 'bob-pass');
    expect((await test.call('GET', '/v1/user', { token })).status).toBe(200);
    expect((await test.call('GET', '/v1/user', { token: other })).status).toBe(200);
    expect((await test.call('DELETE', '/v1/common/auth', { token: other })).status).toBe(200);
    expect((await test.call('GET', '/v1/user', { token: other })).status).toBe(401);
    const id = await userId('bob');
    expect((await test.call('PUT', `/v1/users/${id}`, { token: admin, body: { status: 'disabled' } })).body.code).toBe(
      0,
    );
    expect((await test.call('GET', '/v1/user', { token })).status).toBe(401);
  });
});
