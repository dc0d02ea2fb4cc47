import { ALL_ADMIN_PERMISSIONS, type Permission } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../test/databases.ts';
import { type OpenApiDocument, type Operation, operationsOf } from '../test/openapi-operations.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../test/test-app.ts';
import { ADMIN_ROUTE_ACCESS, routeAccess } from './admin-access.ts';

const routeOf = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const urlOf = (operation: Operation) => operation.path.replace(/\{\w+\}/g, '1');
const label = (operation: Operation) => `${operation.method} ${operation.path}`;
const ACCESS_REFUSAL = /^this needs (an administrator|the .* permission)$/;

/**
 * Every admin route, called by an ordinary user, by a sub-admin holding every code but the ones it
 * needs, and by a sub-admin holding just one of them: only the last gets past the access check.
 */
describe.each(DIALECTS)('admin route access on $dialect', (target) => {
  let test: TestApp;
  let operations: Operation[];
  const tokens = new Map<string, string>();
  let user: string;
  let serial = 0;

  async function subAdmin(access: readonly Permission[]) {
    const key = access.join(',');
    const known = tokens.get(key);
    if (known) return known;
    const username = `sub${++serial}`;
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const made = await test.call('POST', '/v1/users', {
      token: admin,
      body: { username, password: 'sub-admin-1', type: 1, access },
    });
    expect(made.body.code, made.body.msg).toBe(0);
    const token = await test.login(username, 'sub-admin-1');
    tokens.set(key, token);
    return token;
  }

  // Some calls answer a file (the operation log's CSV export): its envelope is only read when it is one.
  const call = async (operation: Operation, token: string) => {
    const response = await test.app.inject({
      method: operation.method,
      url: urlOf(operation),
      headers: { 'access-token': token },
      ...(operation.method !== 'GET' && operation.method !== 'DELETE' && { payload: {} }),
    });
    const json = String(response.headers['content-type'] ?? '').startsWith('application/json');
    const body = json ? (response.json() as { code: number | string; msg: string }) : { code: 0, msg: '' };
    return { status: response.statusCode, body };
  };

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    user = await addUser(test, 'plain');
    const document = (await test.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as OpenApiDocument;
    operations = operationsOf(document);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('has admin routes under every rule of the table', () => {
    for (const rule of ADMIN_ROUTE_ACCESS) {
      const under = operations.filter((operation) => routeAccess(routeOf(operation.path)) === rule.access);
      expect(under.length, rule.path).toBeGreaterThan(0);
    }
  });

  it('refuses each admin route to ordinary users and to sub-admins without its code, and lets one code in', async () => {
    const admin = operations.filter((operation) => routeAccess(routeOf(operation.path)) !== null);
    expect(admin.length).toBeGreaterThan(20);
    for (const operation of admin) {
      const access = routeAccess(routeOf(operation.path)) ?? [];
      const ordinary = await call(operation, user);
      expect([ordinary.status, ordinary.body.code, ordinary.body.msg], label(operation)).toEqual([
        403,
        'forbidden',
        'this needs an administrator',
      ]);
      if (access.length === 0) continue;
      const without = await subAdmin(ALL_ADMIN_PERMISSIONS.filter((code) => !access.includes(code)));
      const refused = await call(operation, without);
      expect([refused.status, refused.body.msg], label(operation)).toEqual([
        403,
        `this needs the ${access.join(' or ')} permission`,
      ]);
      for (const code of access) {
        const allowed = await call(operation, await subAdmin([code]));
        expect(allowed.body.msg, `${label(operation)} with ${code}`).not.toMatch(ACCESS_REFUSAL);
      }
    }
  });

  it('lists every route that refuses ordinary users as an admin route', async () => {
    const unlisted: string[] = [];
    for (const operation of operations) {
      if (routeAccess(routeOf(operation.path))) continue;
      let result = await call(operation, user);
      // Some calls end the caller's session (signing out): sign in again and ask once more.
      if (result.status === 401) {
        user = await test.login('plain', 'plain-pass');
        result = await call(operation, user);
      }
      expect(result.status, label(operation)).not.toBe(401);
      if (result.status === 403 && result.body.msg === 'this needs an administrator') unlisted.push(label(operation));
    }
    expect(unlisted).toEqual([]);
  });
});
