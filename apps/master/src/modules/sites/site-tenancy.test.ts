import { PERMISSIONS } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCert } from '../../test/certs.ts';
import { DIALECTS } from '../../test/databases.ts';
import { createSite, data, ipMatch, ORIGIN } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

interface Resource {
  /** The list and item path: `${path}/${id}`. */
  path: string;
  /** An edit every owner may make. */
  edit: Record<string, unknown>;
  /** Makes one as the customer and answers its id. */
  create(test: TestApp, token: string, siteId: number): Promise<number>;
}

const cert = makeCert(['tenancy.example.com']);

/** A customer's service resources, each reached as /v1/<kind> and /v1/<kind>/{id}. */
const RESOURCES: readonly Resource[] = [
  { path: '/v1/sites', edit: { name: 'taken' }, create: async (_test, _token, siteId) => siteId },
  {
    path: '/v1/site-groups',
    edit: { name: 'taken' },
    create: async (test, token) => data(await test.call('POST', '/v1/site-groups', { token, body: { name: 'a' } })).id,
  },
  {
    path: '/v1/streams',
    edit: { name: 'taken' },
    create: async (test, token) =>
      data(
        await test.call('POST', '/v1/streams', {
          token,
          body: { listen_port: 3306, protocol: 'tcp', origins: [ORIGIN] },
        }),
      ).id,
  },
  {
    path: '/v1/certs',
    edit: { name: 'taken' },
    create: async (test, token) =>
      data(await test.call('POST', '/v1/certs', { token, body: { name: 'a', cert: cert.cert, key: cert.key } })).id,
  },
  {
    path: '/v1/acls',
    edit: { entries: [] },
    create: async (test, token, siteId) =>
      data(
        await test.call('POST', '/v1/acls', {
          token,
          body: {
            site_id: siteId,
            entries: [{ action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['10.0.0.1'] } }],
          },
        }),
      ).id,
  },
  {
    path: '/v1/cc-matchs',
    edit: { name: 'taken' },
    create: async (test, token) => data(await test.call('POST', '/v1/cc-matchs', { token, body: ipMatch('a') })).id,
  },
];

/**
 * A sub-admin reaches customers' sites, streams, certificates and rules only holding admin:user; an
 * admin without it is a customer like any other there.
 */
describe.each(DIALECTS)('customers’ service resources and sub-admins on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let aliceId: number;
  let owned: Map<string, number>;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
    aliceId = data(await test.call('GET', '/v1/user', { token: alice })).id;
    const siteId = await createSite(test, alice, 'alice.example.com');
    owned = new Map();
    for (const resource of RESOURCES) owned.set(resource.path, await resource.create(test, alice, siteId));
  });
  afterEach(async () => {
    await test.close();
  });

  /** A type-1 account holding only `access`, made by the root admin, signed in. */
  async function subAdmin(username: string, access: string[]): Promise<string> {
    const root = await test.login('admin', ADMIN_PASSWORD);
    const body = { username, password: `${username}-pass-1`, type: 1, access };
    data(await test.call('POST', '/v1/users', { token: root, body }));
    return test.login(username, `${username}-pass-1`);
  }

  const listedIds = async (token: string, path: string) =>
    data<{ list: { id: number }[] }>(await test.call('GET', path, { token })).list.map((row) => row.id);

  it('keeps a sub-admin holding only admin:node out of every customer’s rows', async () => {
    const nodeAdmin = await subAdmin('nodes', [PERMISSIONS.adminNode]);
    for (const { path, edit } of RESOURCES) {
      const id = owned.get(path) as number;
      const before = data(await test.call('GET', `${path}/${id}`, { token: alice }));
      expect(await listedIds(nodeAdmin, path), path).not.toContain(id);
      for (const [method, body] of [['GET'], ['PUT', edit], ['DELETE']] as const) {
        const refused = await test.call(method, `${path}/${id}`, { token: nodeAdmin, body });
        expect([method, path, refused.status]).toEqual([method, path, 404]);
      }
      expect(data(await test.call('GET', `${path}/${id}`, { token: alice })), path).toEqual(before);
    }
    const siteId = owned.get('/v1/sites') as number;
    const batch = await test.call('PUT', '/v1/sites', { token: nodeAdmin, body: { ids: [siteId], action: 'disable' } });
    expect(batch.status).toBe(404);
    expect(data<{ enabled: boolean }>(await test.call('GET', `/v1/sites/${siteId}`, { token: alice })).enabled).toBe(
      true,
    );
  });

  it('opens every customer’s rows to a sub-admin holding admin:user, and to the root admin', async () => {
    const userAdmin = await subAdmin('users', [PERMISSIONS.adminUser]);
    const root = await test.login('admin', ADMIN_PASSWORD);
    for (const token of [userAdmin, root]) {
      for (const { path } of RESOURCES) {
        const id = owned.get(path) as number;
        expect(await listedIds(token, path), path).toContain(id);
        expect((await test.call('GET', `${path}/${id}`, { token })).status, path).toBe(200);
      }
    }
    const siteId = owned.get('/v1/sites') as number;
    data(await test.call('PUT', `/v1/sites/${siteId}`, { token: userAdmin, body: { name: 'by support' } }));
    expect(data<{ name: string }>(await test.call('GET', `/v1/sites/${siteId}`, { token: alice })).name).toBe(
      'by support',
    );
  });

  it('leaves the choice of a site’s line group to an admin holding admin:node too', async () => {
    const userAdmin = await subAdmin('users', [PERMISSIONS.adminUser]);
    const siteId = owned.get('/v1/sites') as number;
    const refused = await test.call('PUT', `/v1/sites/${siteId}`, { token: userAdmin, body: { line_group_id: null } });
    expect([refused.status, refused.body.msg]).toEqual([403, 'line_group_id: this needs the admin:node permission']);
    const root = await test.login('admin', ADMIN_PASSWORD);
    data(await test.call('PUT', `/v1/sites/${siteId}`, { token: root, body: { line_group_id: null } }));
  });

  it('makes rows for a customer (user_id) only for a sub-admin holding admin:user', async () => {
    const nodeAdmin = await subAdmin('nodes', [PERMISSIONS.adminNode]);
    const userAdmin = await subAdmin('users', [PERMISSIONS.adminUser]);
    const body = { name: 'for alice', user_id: aliceId };
    const refused = await test.call('POST', '/v1/site-groups', { token: nodeAdmin, body });
    expect([refused.status, refused.body.msg]).toEqual([
      403,
      "user_id: only an administrator holding this area's code creates rows for another user",
    ]);
    const made = data<{ user_id: number }>(await test.call('POST', '/v1/site-groups', { token: userAdmin, body }));
    expect(made.user_id).toBe(aliceId);
  });
});
