import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DIALECTS)('site and stream groups read by id on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterAll(async () => {
    await test.close();
  });

  it.each(['/v1/site-groups', '/v1/stream-groups'])(
    '%s/{id}: the owner and admins read it, others get 404',
    async (path) => {
      const group = data<{ id: number; user_id: number }>(
        await test.call('POST', path, { token: alice, body: { name: 'shops' } }),
      );
      const read = await test.call('GET', `${path}/${group.id}`, { token: alice });
      expect(read.body).toEqual({ code: 0, msg: 'ok', data: { id: group.id, user_id: group.user_id, name: 'shops' } });
      expect((await test.call('GET', `${path}/${group.id}`, { token: admin })).body.data).toEqual(read.body.data);
      const label = path === '/v1/site-groups' ? 'site group' : 'stream group';
      for (const [token, id] of [
        [bob, group.id],
        [alice, 999_999],
      ] as const) {
        const refused = await test.call('GET', `${path}/${id}`, { token });
        expect(refused.status).toBe(404);
        expect(refused.body).toEqual({ code: 'not_found', msg: `${label} ${id} does not exist`, data: null });
      }
    },
  );
});
