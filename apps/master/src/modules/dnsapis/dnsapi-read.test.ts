import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DIALECTS)('a DNS API read by id on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  let id: number;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
    const owner = await test.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    // Stored as the create call stores it; reading needs no provider.
    id = (
      await test.database.db
        .insertInto('dnsapis')
        .values({
          user_id: owner.id,
          name: 'pdns',
          provider: 'powerdns',
          credentials: 'v1.sealed.never.shown',
          created_at: 0,
          updated_at: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await test.close();
  });

  it('answers the owner and admins without the credentials, and 404 to another user', async () => {
    const read = await test.call('GET', `/v1/dnsapis/${id}`, { token: alice });
    expect(read.body).toMatchObject({ code: 0, data: { id, name: 'pdns', provider: 'powerdns' } });
    expect(JSON.stringify(read.body)).not.toContain('sealed');
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await test.call('GET', `/v1/dnsapis/${id}`, { token: admin })).body.data).toEqual(read.body.data);
    const refused = await test.call('GET', `/v1/dnsapis/${id}`, { token: bob });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ code: 'not_found', msg: `DNS API ${id} does not exist`, data: null });
  });
});
