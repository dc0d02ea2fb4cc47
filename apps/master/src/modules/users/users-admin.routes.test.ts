import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { createSite, data, ORIGIN } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';
import { liveSites } from '../sites/sites.repository.ts';
import { liveStreams } from '../streams/streams.repository.ts';
import { NARROW_SEARCH_TERMS, USER_LIST_COUNT_CAP, USER_SEARCH_COUNT_CAP } from './users-admin.repository.ts';

interface Listed {
  list: { id: number; account: string; status: string; group: number | null; group_name: string | null }[];
  total: number;
}

describe.each(DIALECTS)('admin users on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  const create = async (body: Record<string, unknown>) => {
    const result = await test.call('POST', '/v1/users', { token: admin, body });
    expect(result.body.code, result.body.msg).toBe(0);
    return result.body.data as { id: number; password?: string; group: number | null };
  };
  const list = async (query: string) => data<Listed>(await test.call('GET', `/v1/users?${query}`, { token: admin }));
  const idOf = async (account: string) =>
    Number(
      (
        await test.database.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', account)
          .executeTakeFirstOrThrow()
      ).id,
    );

  it('creates a user with the password the admin sets, or a generated one answered once', async () => {
    const set = await create({ username: 'carol', password: 'carol-pass-1', email: 'carol@example.com' });
    expect(set.password).toBeUndefined();
    expect((await test.login('carol', 'carol-pass-1')).length).toBeGreaterThan(0);

    const made = await create({ username: 'dave', generate_password: true });
    expect(made.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await test.login('dave', made.password ?? '')).length).toBeGreaterThan(0);
    const read = await test.call('GET', `/v1/users/${made.id}`, { token: admin });
    expect(read.body.data).toMatchObject({ account: 'dave', type: 2, status: 'enabled', certified: false });
    expect(JSON.stringify(read.body.data)).not.toContain(made.password);
  });

  it('refuses bad input naming the field and rule', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ username: 'x', password: 'secret-1' }, 'invalid_param', /^body\/username/],
      [{ username: 'erin' }, 'invalid_param', /^password: is required unless generate_password/],
      [{ username: 'erin', password: '123' }, 'invalid_param', /^body\/password/],
      [{ username: 'erin', password: 'secret-1', email: 'nope' }, 'invalid_param', /^body\/email/],
      [{ username: 'erin', password: 'secret-1', access: ['admin:user'] }, 'invalid_param', /^access: only admins/],
      [{ username: 'erin', password: 'secret-1', type: 1, access: ['root'] }, 'invalid_param', /^body\/access/],
      [{ username: 'erin', password: 'secret-1', group: 999 }, 'not_found', /^group: user group 999/],
      [{ username: 'admin', password: 'secret-1' }, 'account_exists', /^username:/],
    ];
    for (const [body, code, msg] of cases) {
      const result = await test.call('POST', '/v1/users', { token: admin, body });
      expect(result.body.code, JSON.stringify(body)).toBe(code);
      expect(result.body.msg, JSON.stringify(body)).toMatch(msg);
    }
    const sort = await test.call('GET', '/v1/users?sort=password_hash', { token: admin });
    expect(sort.body).toMatchObject({ code: 'invalid_param' });
    expect(sort.body.msg).toMatch(/^querystring\/sort/);
  });

  it('searches account, email, phone and name, filters, sorts and pages', async () => {
    const vip = data(await test.call('POST', '/v1/user-groups', { token: admin, body: { name: 'VIP' } }));
    await create({ username: 'amber', password: 'secret-1', email: 'amber@shop.example', group: vip.id });
    await create({ username: 'brook', password: 'secret-1', phone: '+15550123', name: 'Brook Ōtani' });
    await create({ username: 'cedar', password: 'secret-1', type: 1, access: ['admin:node'] });
    await create({ username: 'a_b', password: 'secret-1' });
    expect((await list('search=SHOP.example')).list.map((u) => u.account)).toEqual(['amber']);
    expect((await list('search=1555012')).list.map((u) => u.account)).toEqual(['brook']);
    expect((await list('search=ōtani')).list.map((u) => u.account)).toEqual(['brook']);
    // LIKE wildcards match themselves.
    expect((await list('search=a_')).list.map((u) => u.account)).toEqual(['a_b']);
    expect((await list('search=%25')).total).toBe(0);
    expect((await list('type=1&sort=account')).list.map((u) => u.account)).toEqual(['admin', 'cedar']);
    expect((await list(`group=${vip.id}`)).list).toEqual([
      expect.objectContaining({ account: 'amber', group_name: 'VIP' }),
    ]);
    expect((await list('group=0&type=2&sort=-account')).list.map((u) => u.account)).toEqual(['brook', 'a_b']);
    expect((await list('certified=true')).total).toBe(0);
    const pageTwo = await list('sort=account&page=2&limit=2');
    expect(pageTwo.total).toBe(5);
    expect(pageTwo.list.map((u) => u.account)).toEqual(['amber', 'brook']);
  });

  it('pages a broad search in the list order and caps its count', async () => {
    const now = Date.now();
    // Written in bulk (the terms as insertUser writes them): one by one takes seconds on PostgreSQL.
    const many = Array.from({ length: USER_SEARCH_COUNT_CAP + 100 }, (_, i) => `bulk${String(i).padStart(5, '0')}`);
    const rows = await test.database.db
      .insertInto('users')
      .values(
        many.map((username) => ({
          username,
          username_key: username,
          email: '',
          phone: '',
          name: '',
          qq: '',
          password_hash: 'x',
          type: 2,
          access: '[]',
          balance: 0,
          status: 'enabled',
          created_at: now,
          updated_at: now,
        })),
      )
      .returning(['id', 'username'])
      .execute();
    await test.database.db
      .insertInto('user_search_terms')
      .values(rows.map((row) => ({ term: row.username, user_id: row.id })))
      .execute();
    await test.database.db
      .updateTable('users')
      .set({ certified: 1 })
      .where('username', 'in', ['bulk00007', 'bulk01050'])
      .execute();
    const broad = await test.call('GET', '/v1/users?search=BULK&limit=3', { token: admin });
    expect(broad.body.data).toMatchObject({ total: USER_SEARCH_COUNT_CAP, total_capped: true });
    expect((broad.body.data as Listed).list.map((u) => u.account)).toEqual(['bulk01099', 'bulk01098', 'bulk01097']);
    const sorted = await list('search=bulk&sort=account&page=2&limit=2');
    expect(sorted.list.map((u) => u.account)).toEqual(['bulk00002', 'bulk00003']);
    const certified = await list('search=bulk&certified=true');
    expect(certified).toMatchObject({ total: 2 });
    expect(certified.list.map((u) => u.account)).toEqual(['bulk01050', 'bulk00007']);
    expect((await list('search=bulk01050')).list.map((u) => u.account)).toEqual(['bulk01050']);
  });

  it('counts a broad search exactly when its many terms belong to fewer users than the cap', async () => {
    const now = Date.now();
    // Account and email both start with "dup": 1,200 terms (a broad search) of 600 users.
    const usernames = Array.from({ length: 600 }, (_, i) => `dup${String(i).padStart(3, '0')}`);
    const rows = await test.database.db
      .insertInto('users')
      .values(
        usernames.map((username) => ({
          username,
          username_key: username,
          email: `${username}@mail.example`,
          email_key: `${username}@mail.example`,
          phone: '',
          name: '',
          qq: '',
          password_hash: 'x',
          type: 2,
          access: '[]',
          balance: 0,
          status: 'enabled',
          created_at: now,
          updated_at: now,
        })),
      )
      .returning(['id', 'username'])
      .execute();
    await test.database.db
      .insertInto('user_search_terms')
      .values(
        rows.flatMap((row) => [
          { term: row.username, user_id: row.id },
          { term: `${row.username}@mail.example`, user_id: row.id },
        ]),
      )
      .execute();
    expect(NARROW_SEARCH_TERMS).toBeLessThan(1200);
    const broad = await test.call('GET', '/v1/users?search=DUP&limit=2', { token: admin });
    expect(broad.body.data).toMatchObject({ total: 600 });
    expect(broad.body.data).not.toHaveProperty('total_capped');
    expect((broad.body.data as Listed).list.map((u) => u.account)).toEqual(['dup599', 'dup598']);
    expect(await list('search=dup05')).toMatchObject({ total: 10 });
  });

  it('caps the count of a plain list past USER_LIST_COUNT_CAP, and counts a filtered one exactly', async () => {
    const now = Date.now();
    const usernames = Array.from({ length: USER_LIST_COUNT_CAP + 5 }, (_, i) => `many${String(i).padStart(5, '0')}`);
    // In chunks: PostgreSQL takes at most 65,535 parameters a statement.
    for (let from = 0; from < usernames.length; from += 2000) {
      await test.database.db
        .insertInto('users')
        .values(
          usernames.slice(from, from + 2000).map((username, i) => ({
            username,
            username_key: username,
            email: '',
            phone: '',
            name: '',
            qq: '',
            password_hash: 'x',
            type: 2,
            access: '[]',
            balance: 0,
            status: 'enabled',
            certified: from + i < 3 ? 1 : 0,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    const all = await test.call('GET', '/v1/users?limit=2', { token: admin });
    expect(all.body.data).toMatchObject({ total: USER_LIST_COUNT_CAP, total_capped: true });
    expect((all.body.data as Listed).list.map((u) => u.account)).toEqual(['many10004', 'many10003']);
    const certified = await test.call('GET', '/v1/users?certified=true&sort=account', { token: admin });
    expect(certified.body.data).toMatchObject({ total: 3 });
    expect(certified.body.data).not.toHaveProperty('total_capped');
    expect((certified.body.data as Listed).list.map((u) => u.account)).toEqual(['many00000', 'many00001', 'many00002']);
  });

  it('disabling ends the sessions and API key at once and suspends the sites; enabling restores each as it was', async () => {
    const alice = await addUser(test, 'alice');
    const aliceId = await idOf('alice');
    const key = data<{ token: string }>(
      await test.call('POST', '/v1/api-key', { token: alice, body: { scope: 'read' } }),
    );
    const on = await createSite(test, alice, 'on.alice.example');
    const off = await createSite(test, alice, 'off.alice.example');
    data(await test.call('PUT', '/v1/sites', { token: alice, body: { ids: [off], action: 'disable' } }));
    data(
      await test.call('POST', '/v1/streams', {
        token: alice,
        body: { listen_port: 3306, protocol: 'tcp', origins: [ORIGIN] },
      }),
    );
    const siteIds = async () => (await liveSites(test.database.db)).map((row) => Number(row.id));
    expect(await siteIds()).toEqual([on]);
    const before = await currentConfigVersion(test.database.db);

    data(await test.call('PUT', `/v1/users/${aliceId}`, { token: admin, body: { status: 'disabled' } }));
    expect((await test.call('GET', '/v1/user', { token: alice })).body.code).toBe('login_required');
    expect((await test.call('GET', '/v1/user', { token: key.token })).body.code).toBe('login_required');
    expect(await siteIds()).toEqual([]);
    expect(await liveStreams(test.database.db)).toEqual([]);
    expect(await currentConfigVersion(test.database.db)).toBeGreaterThan(before);
    const signIn = await test.call('POST', '/v1/login', { body: { account: 'alice', password: 'alice-pass' } });
    expect(signIn.body.code).not.toBe(0);

    data(await test.call('PUT', '/v1/users', { token: admin, body: { ids: [aliceId], action: 'enable' } }));
    expect(await siteIds()).toEqual([on]);
    expect(await liveStreams(test.database.db)).toHaveLength(1);
    // Sessions stay ended; the key works again with its user.
    expect((await test.call('GET', '/v1/user', { token: alice })).body.code).toBe('login_required');
    expect((await test.call('GET', '/v1/user', { token: key.token })).body.code).toBe(0);
  });

  it('batch enables, disables and moves users to a group, refusing unknown ids and the caller itself', async () => {
    const ids = [
      (await create({ username: 'user1', password: 'secret-1' })).id,
      (await create({ username: 'user2', password: 'secret-1' })).id,
    ];
    const group = data(await test.call('POST', '/v1/user-groups', { token: admin, body: { name: 'Batch' } }));
    expect(data(await test.call('PUT', '/v1/users', { token: admin, body: { ids, action: 'disable' } }))).toEqual({
      updated: 2,
    });
    expect((await list('state=disabled')).total).toBe(2);
    data(await test.call('PUT', '/v1/users', { token: admin, body: { ids, action: 'group', group_id: group.id } }));
    expect((await list(`group=${group.id}`)).total).toBe(2);
    const missing = await test.call('PUT', '/v1/users', {
      token: admin,
      body: { ids: [...ids, 999], action: 'enable' },
    });
    expect(missing.body).toMatchObject({ code: 'not_found', msg: 'ids: user 999 does not exist' });
    const self = await test.call('PUT', '/v1/users', {
      token: admin,
      body: { ids: [await idOf('admin')], action: 'disable' },
    });
    expect(self.body).toMatchObject({ code: 'invalid_param', msg: 'ids: you cannot disable your own account' });
    const noGroup = await test.call('PUT', '/v1/users', { token: admin, body: { ids, action: 'group' } });
    expect(noGroup.body.msg).toBe('group_id: is required to move users to a group');
  });

  it('lets only an admin holding admin:user exempt a customer from needing a package, on create, edit and batch', async () => {
    const made = await create({ username: 'exempt1', password: 'secret-1', package_exempt: true });
    const plain = await create({ username: 'plain1', password: 'secret-1' });
    const row = async (id: number) =>
      data<{ package_exempt: boolean }>(await test.call('GET', `/v1/users/${id}`, { token: admin }));
    expect((await row(made.id)).package_exempt).toBe(true);
    expect((await row(plain.id)).package_exempt).toBe(false);
    const listed = data<{ list: { id: number; package_exempt: boolean }[] }>(
      await test.call('GET', '/v1/users?search=plain1', { token: admin }),
    );
    expect(listed.list.map((user) => [user.id, user.package_exempt])).toEqual([[plain.id, false]]);

    data(await test.call('PUT', `/v1/users/${plain.id}`, { token: admin, body: { package_exempt: true } }));
    expect((await row(plain.id)).package_exempt).toBe(true);
    const batch = { ids: [made.id, plain.id], action: 'package_exempt', package_exempt: false };
    expect(data(await test.call('PUT', '/v1/users', { token: admin, body: batch }))).toEqual({ updated: 2 });
    expect((await row(made.id)).package_exempt).toBe(false);
    const bare = await test.call('PUT', '/v1/users', {
      token: admin,
      body: { ids: [made.id], action: 'package_exempt' },
    });
    expect(bare.body).toMatchObject({
      code: 'invalid_param',
      params: { field: 'package_exempt', rule: 'is required with the package_exempt action' },
    });

    await create({ username: 'nodeops', password: 'secret-1', type: 1, access: ['admin:node'] });
    const nodeOps = await test.login('nodeops', 'secret-1');
    const customer = await addUser(test, 'wants-free');
    for (const [method, url, body] of [
      ['PUT', `/v1/users/${plain.id}`, { package_exempt: true }],
      ['PUT', '/v1/users', { ...batch, package_exempt: true }],
      ['POST', '/v1/users', { username: 'sneaky', password: 'secret-1', package_exempt: true }],
    ] as const) {
      expect((await test.call(method, url, { token: nodeOps, body })).body.code, url).toBe('forbidden');
      expect((await test.call(method, url, { token: customer, body })).body.code, url).toBe('forbidden');
    }
    expect((await row(plain.id)).package_exempt).toBe(false);
  });

  it('deletes only a user nothing belongs to, otherwise names what does', async () => {
    const alice = await addUser(test, 'alice');
    const aliceId = await idOf('alice');
    const site = await createSite(test, alice, 'www.alice.example');
    data(await test.call('POST', '/v1/api-key', { token: alice, body: { scope: 'read' } }));
    const refused = await test.call('DELETE', `/v1/users/${aliceId}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'conflict',
      msg: 'id: user alice still has 1 site, 1 API key; remove or move them first',
    });
    data(await test.call('DELETE', `/v1/sites/${site}`, { token: alice }));
    data(await test.call('DELETE', '/v1/api-key', { token: alice }));
    data(await test.call('DELETE', `/v1/users/${aliceId}`, { token: admin }));
    expect((await test.call('GET', `/v1/users/${aliceId}`, { token: admin })).status).toBe(404);
    expect((await test.call('GET', '/v1/user', { token: alice })).body.code).toBe('login_required');
    const self = await test.call('DELETE', `/v1/users/${await idOf('admin')}`, { token: admin });
    expect(self.body.msg).toBe('id: you cannot delete your own account');
  });

  it('changes profile, type and access; a new password ends their sessions', async () => {
    const made = await create({ username: 'frank', password: 'secret-1' });
    const frank = await test.login('frank', 'secret-1');
    const changed = await test.call('PUT', `/v1/users/${made.id}`, {
      token: admin,
      body: { name: 'Frank', type: 1, access: ['admin:sys'], password: 'secret-2' },
    });
    expect(changed.body.data).toMatchObject({ name: 'Frank', type: 1, access: ['admin:sys'] });
    expect((await test.call('GET', '/v1/user', { token: frank })).body.code).toBe('login_required');
    expect((await test.login('frank', 'secret-2')).length).toBeGreaterThan(0);
    const demoted = await test.call('PUT', `/v1/users/${made.id}`, { token: admin, body: { type: 2 } });
    expect(demoted.body.data).toMatchObject({ type: 2, access: [] });
    expect((await list('search=frank')).list[0]).toMatchObject({ account: 'frank' });
    const own = await test.call('PUT', `/v1/users/${await idOf('admin')}`, {
      token: admin,
      body: { password: 'secret-3' },
    });
    expect(own.body).toMatchObject({
      code: 'invalid_param',
      msg: 'password: change your own password with PUT /v1/user',
    });
    expect((await test.call('GET', '/v1/user', { token: admin })).body.code).toBe(0);
  });

  /** An admin made by the root admin, signed in. */
  const staff = async (username: string, access: string[]) => {
    const made = await create({ username, password: `${username}-pass`, type: 1, access });
    return { id: made.id, token: await test.login(username, `${username}-pass`) };
  };
  const read = async (id: number) =>
    data<{ name: string; type: number; access: string[]; group: number | null; status: string }>(
      await test.call('GET', `/v1/users/${id}`, { token: admin }),
    );

  it('lets a sub-admin grant only the codes they hold', async () => {
    const lead = await staff('lead', ['admin:sys', 'admin:user']);
    const grant = await test.call('POST', '/v1/users', {
      token: lead.token,
      body: { username: 'ops2', password: 'secret-1', type: 1, access: ['admin:node'] },
    });
    expect(grant.body).toMatchObject({ code: 'forbidden', msg: 'access: you cannot grant admin:node' });
    const narrow = await test.call('POST', '/v1/users', {
      token: lead.token,
      body: { username: 'ops3', password: 'secret-1', type: 1, access: ['admin:user'] },
    });
    expect(narrow.body.code).toBe(0);
    const widen = await test.call('PUT', `/v1/users/${data(narrow).id}`, {
      token: lead.token,
      body: { access: ['admin:user', 'admin:finance'] },
    });
    expect(widen.body).toMatchObject({ code: 'forbidden', msg: 'access: you cannot grant admin:finance' });
    expect((await test.call('GET', '/v1/nodes', { token: lead.token })).body.code).toBe('forbidden');
  });

  it('lets only an admin holding admin:sys make or unmake an admin', async () => {
    const helper = await staff('helper', ['admin:user']);
    const peer = await staff('peer', ['admin:user']);
    const customer = await create({ username: 'carl', password: 'secret-1' });
    const refusal = { code: 'forbidden', msg: 'type: only an admin holding admin:sys makes or unmakes an admin' };
    const made = await test.call('POST', '/v1/users', {
      token: helper.token,
      body: { username: 'boss', password: 'secret-1', type: 1, access: [] },
    });
    expect(made.body).toMatchObject(refusal);
    const promoted = await test.call('PUT', `/v1/users/${customer.id}`, { token: helper.token, body: { type: 1 } });
    expect(promoted.body).toMatchObject(refusal);
    const demoted = await test.call('PUT', `/v1/users/${peer.id}`, { token: helper.token, body: { type: 2 } });
    expect(demoted.body).toMatchObject(refusal);
    expect((await test.call('DELETE', `/v1/users/${peer.id}`, { token: helper.token })).body).toMatchObject(refusal);
    expect(await read(customer.id)).toMatchObject({ type: 2 });
    expect(await read(peer.id)).toMatchObject({ type: 1, access: ['admin:user'] });
    expect((await list('search=boss')).total).toBe(0);
    // Customers and the profile of an admin holding no more than the helper stay the helper's to manage.
    data(
      await test.call('POST', '/v1/users', { token: helper.token, body: { username: 'cleo', password: 'secret-1' } }),
    );
    data(await test.call('PUT', `/v1/users/${peer.id}`, { token: helper.token, body: { name: 'Peer' } }));
    const sys = await staff('sys', ['admin:sys', 'admin:user']);
    data(await test.call('PUT', `/v1/users/${customer.id}`, { token: sys.token, body: { type: 1, access: [] } }));
    expect(await read(customer.id)).toMatchObject({ type: 1, access: [] });
  });

  it('leaves an admin holding a code the caller lacks alone on every path', async () => {
    const helper = await staff('helper', ['admin:user']);
    const ops = await staff('ops', ['admin:user', 'admin:node']);
    const customer = await create({ username: 'carl', password: 'secret-1' });
    const vip = data(await test.call('POST', '/v1/user-groups', { token: admin, body: { name: 'VIP' } }));
    const refusal = { code: 'forbidden', msg: 'id: ops holds admin:node, which you do not hold' };
    const calls: [string, string, unknown][] = [
      ['PUT', `/v1/users/${ops.id}`, { name: 'x' }],
      ['PUT', `/v1/users/${ops.id}`, { password: 'taken-over-1' }],
      ['PUT', `/v1/users/${ops.id}`, { group: vip.id }],
      ['PUT', `/v1/users/${ops.id}`, { status: 'disabled' }],
      ['PUT', `/v1/users/${ops.id}`, { access: ['admin:user'] }],
      ['PUT', '/v1/users', { ids: [customer.id, ops.id], action: 'group', group_id: vip.id }],
      ['PUT', '/v1/users', { ids: [ops.id], action: 'disable' }],
      ['DELETE', `/v1/users/${ops.id}`, undefined],
    ];
    for (const [method, url, body] of calls) {
      const result = await test.call(method as 'PUT' | 'DELETE', url, { token: helper.token, body });
      expect(result.body, `${method} ${url} ${JSON.stringify(body)}`).toMatchObject(refusal);
    }
    expect(await read(ops.id)).toMatchObject({
      name: '',
      group: null,
      status: 'enabled',
      access: ['admin:user', 'admin:node'],
    });
    // A batch is all or none: the customer beside ops did not move either.
    expect(await read(customer.id)).toMatchObject({ group: null });
    expect((await test.call('GET', '/v1/user', { token: ops.token })).body.code).toBe(0);
    expect((await test.login('ops', 'ops-pass')).length).toBeGreaterThan(0);
  });

  it('lets nobody but the root admin touch the root admin', async () => {
    const rootId = await idOf('admin');
    const deputy = await staff('deputy', [
      'admin:node',
      'admin:config',
      'admin:package',
      'admin:finance',
      'admin:sys',
      'admin:user',
    ]);
    const vip = data(await test.call('POST', '/v1/user-groups', { token: admin, body: { name: 'VIP' } }));
    const calls: [string, string, unknown][] = [
      ['PUT', `/v1/users/${rootId}`, { name: 'x' }],
      ['PUT', `/v1/users/${rootId}`, { password: 'taken-over-1' }],
      ['PUT', `/v1/users/${rootId}`, { type: 2 }],
      ['PUT', '/v1/users', { ids: [rootId], action: 'group', group_id: vip.id }],
      ['PUT', '/v1/users', { ids: [rootId], action: 'disable' }],
      ['DELETE', `/v1/users/${rootId}`, undefined],
    ];
    for (const [method, url, body] of calls) {
      const result = await test.call(method as 'PUT' | 'DELETE', url, { token: deputy.token, body });
      expect(result.body, `${method} ${url} ${JSON.stringify(body)}`).toMatchObject({
        code: 'forbidden',
        msg: 'id: admin is the root admin; only the root admin changes it',
      });
    }
    expect(await read(rootId)).toMatchObject({ name: 'Administrator', type: 1, group: null, status: 'enabled' });
    expect((await test.call('GET', '/v1/user', { token: admin })).body.code).toBe(0);
    data(await test.call('PUT', `/v1/users/${deputy.id}`, { token: admin, body: { name: 'Deputy' } }));
  });

  it('records every write in the operation log with its target and no password', async () => {
    const made = await create({ username: 'gina', password: 'secret-1' });
    data(await test.call('PUT', `/v1/users/${made.id}`, { token: admin, body: { name: 'Gina' } }));
    const log = data<{ list: { action: string; target_ids: string[]; changes: unknown }[] }>(
      await test.call('GET', '/v1/log/op?page=1&limit=10', { token: admin }),
    ).list;
    expect(log[0]).toMatchObject({ action: 'users.update', target_ids: [String(made.id)] });
    expect(log[1]).toMatchObject({ action: 'users.create', target_ids: [String(made.id)] });
    expect(JSON.stringify(log)).not.toContain('secret-1');
  });

  it('keeps user groups: one default that new users join, names unique, a group with users stays', async () => {
    const basic = data(
      await test.call('POST', '/v1/user-groups', { token: admin, body: { name: 'Basic', is_default: true } }),
    );
    const pro = data(
      await test.call('POST', '/v1/user-groups', {
        token: admin,
        body: { name: 'Pro', description: 'paying', package_groups: [3, 4] },
      }),
    );
    expect((await create({ username: 'hank', password: 'secret-1' })).group).toBe(basic.id);
    data(await test.call('PUT', `/v1/user-groups/${pro.id}`, { token: admin, body: { is_default: true } }));
    expect((await create({ username: 'ivy', password: 'secret-1' })).group).toBe(pro.id);
    const groups = data<{
      list: { name: string; is_default: boolean; user_count: number; package_groups: number[] | null }[];
    }>(await test.call('GET', '/v1/user-groups', { token: admin })).list;
    expect(groups).toEqual([
      expect.objectContaining({ name: 'Basic', is_default: false, user_count: 1, package_groups: null }),
      expect.objectContaining({ name: 'Pro', is_default: true, user_count: 1, package_groups: [3, 4] }),
    ]);
    const dup = await test.call('POST', '/v1/user-groups', { token: admin, body: { name: ' basic ' } });
    expect(dup.body).toMatchObject({ code: 'conflict', msg: 'name: a user group of this name exists' });
    const blank = await test.call('POST', '/v1/user-groups', { token: admin, body: { name: '   ' } });
    expect(blank.body.msg).toMatch(/^body\/name/);
    const used = await test.call('DELETE', `/v1/user-groups/${basic.id}`, { token: admin });
    expect(used.body).toMatchObject({
      code: 'conflict',
      msg: `id: user group ${basic.id} still has 1 user; move them first`,
    });
    data(
      await test.call('PUT', '/v1/users', {
        token: admin,
        body: { ids: [await idOf('hank')], action: 'group', group_id: null },
      }),
    );
    data(await test.call('DELETE', `/v1/user-groups/${basic.id}`, { token: admin }));
    expect((await test.call('GET', `/v1/user-groups/${basic.id}`, { token: admin })).status).toBe(404);
  });

  it('signs an admin in as a user with a session that carries the admin, recorded in the operation log', async () => {
    await addUser(test, 'alice');
    const aliceId = await idOf('alice');
    const adminId = await idOf('admin');
    const made = data<{
      access_token: string;
      user: { account: string };
      impersonator: { id: number; account: string };
    }>(await test.call('POST', `/v1/users/${aliceId}/impersonate`, { token: admin }));
    expect(made).toMatchObject({ user: { account: 'alice' }, impersonator: { id: adminId, account: 'admin' } });
    const as = made.access_token;
    expect((await test.call('GET', '/v1/user', { token: as })).body.data).toMatchObject({ account: 'alice', type: 2 });
    expect((await test.call('GET', '/v1/users', { token: as })).body.code).toBe('forbidden');
    data(await test.call('PUT', '/v1/user', { token: as, body: { name: 'Seen by support' } }));
    const key = await test.call('POST', '/v1/api-key', { token: as, body: { scope: 'write' } });
    expect(key.body).toMatchObject({ code: 'forbidden', msg: 'an admin signed in as this user cannot do this' });
    const log = data<{
      list: { user_id: number; impersonator_id: number | null; action: string; target_ids: string[] }[];
    }>(await test.call('GET', '/v1/log/op?page=1&limit=5', { token: admin })).list;
    expect(log[0]).toMatchObject({ user_id: aliceId, impersonator_id: adminId, action: 'user.update' });
    expect(log[1]).toMatchObject({
      user_id: adminId,
      impersonator_id: null,
      action: 'users.impersonate.create',
      target_ids: [String(aliceId)],
    });
    // The way back: the impersonation session ends, the admin's own goes on.
    data(await test.call('DELETE', '/v1/common/auth', { token: as }));
    expect((await test.call('GET', '/v1/user', { token: as })).body.code).toBe('login_required');
    expect((await test.call('GET', '/v1/user', { token: admin })).body.data).toMatchObject({ account: 'admin' });
    const ofAdmin = await test.call('POST', `/v1/users/${adminId}/impersonate`, { token: admin });
    expect(ofAdmin.body.msg).toBe('id: only ordinary users (type 2) can be signed in as');
  });
});
