import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { MASK } from './audit-entry.ts';
import { pruneAccountLogs } from './log-retention.ts';

interface Entry {
  id: number;
  account: string | null;
  action: string;
  route: string;
  method: string;
  auth_method: string;
  target_ids: string[];
  changes: Record<string, unknown>;
  ip: string;
  user_agent: string;
  result: string;
}
interface LoginEntry {
  account: string;
  result: string;
  method: string;
  user_agent: string;
  ip: string;
}

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };
const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(DIALECTS)('operation and login logs on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterEach(async () => {
    await test.close();
  });

  const opLog = async (token: string, query = '') => {
    const result = await test.call('GET', `/v1/log/op?${query.includes('limit=') ? '' : 'limit=100'}${query}`, {
      token,
    });
    expect(result.body.code, result.body.msg).toBe(0);
    return result.body.data as { list: Entry[]; total: number };
  };
  const createSite = (token: string, domain: string, remoteAddress = '127.0.0.1') =>
    test.app.inject({
      method: 'POST',
      url: '/v1/sites',
      headers: { 'access-token': token, 'user-agent': 'audit-test/1' },
      remoteAddress,
      payload: { domains: [domain], origins: [origin] },
    });

  it('records a write with who, what, where from, and its secrets masked; reads are not recorded', async () => {
    const change = await test.call('PUT', '/v1/user', {
      token: alice,
      body: { name: 'Alice', old_password: 'alice-pass', password: 'alice-new-pass' },
    });
    expect(change.body.code).toBe(0);
    await test.call('GET', '/v1/user', { token: alice });
    const { list, total } = await opLog(alice);
    expect(total).toBe(1);
    expect(list[0]).toMatchObject({
      account: 'alice',
      method: 'PUT',
      route: '/v1/user',
      action: 'user.update',
      auth_method: 'session',
      changes: { name: 'Alice', old_password: MASK, password: MASK },
      ip: '127.0.0.1',
      result: 'ok',
    });
    const stored = await test.database.db.selectFrom('op_logs').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain('alice-new-pass');
    expect(JSON.stringify(stored)).not.toContain('alice-pass');
  });

  it('records the id a create made, and no entry for a refused write', async () => {
    const created = await createSite(alice, 'shop.example.com');
    const siteId = String((created.json() as { data: { id: number } }).data.id);
    const refused = await createSite(alice, 'not a domain');
    expect(refused.statusCode).toBe(400);
    const { list } = await opLog(alice);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ action: 'sites.create', target_ids: [siteId], user_agent: 'audit-test/1' });
    expect(list[0]?.changes).toMatchObject({ domains: ['shop.example.com'] });
  });

  it('names the targets of each entry: the site and account as they are, the id once the row is gone', async () => {
    const created = await createSite(alice, 'named.example.com');
    const siteId = String((created.json() as { data: { id: number } }).data.id);
    const gone = await createSite(alice, 'gone.example.com');
    const goneId = String((gone.json() as { data: { id: number } }).data.id);
    expect((await test.call('DELETE', `/v1/sites/${goneId}`, { token: alice })).body.code).toBe(0);
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const uid = ((await test.call('GET', '/v1/user', { token: alice })).body.data as { id: number }).id;
    expect(
      (await test.call('POST', `/v1/user/${uid}/recharge`, { token: admin, body: { amount: 100 } })).body.code,
    ).toBe(0);
    const mine = (await opLog(alice)).list as (Entry & { target_names: string[] })[];
    const named = (action: string, id: string) =>
      mine.find((entry) => entry.action === action && entry.target_ids.includes(id))?.target_names;
    expect(named('sites.create', siteId)).toEqual(['named.example.com']);
    expect(named('sites.create', goneId)).toEqual([goneId]);
    expect(named('sites.delete', goneId)).toEqual([goneId]);
    const everyone = (await opLog(admin, '&action=user.recharge.create')).list as (Entry & {
      target_names: string[];
    })[];
    // The user is named; the order the recharge made (another kind of id) stays an id.
    expect(everyone[0]?.target_names).toEqual(['alice', ...(everyone[0]?.target_ids.slice(1) ?? [])]);
    expect(everyone[0]?.target_ids[0]).toBe(String(uid));
  });

  it('shows a user only their own entries, whatever they ask for, and an admin everyone’s with filters', async () => {
    const aliceSite = (await createSite(alice, 'a.example.com', '203.0.113.7')).json() as { data: { id: number } };
    await createSite(bob, 'b.example.com');
    await test.call('PUT', '/v1/user', { token: bob, body: { name: 'Bob' } });

    expect((await opLog(alice)).list.map((entry) => entry.account)).toEqual(['alice']);
    expect((await opLog(alice, '&user=bob')).list.map((entry) => entry.account)).toEqual(['alice']);
    expect((await opLog(bob)).list.map((entry) => entry.action)).toEqual(['user.update', 'sites.create']);

    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await opLog(admin)).total).toBe(3);
    expect((await opLog(admin, '&user=bob')).list.map((entry) => entry.action)).toEqual([
      'user.update',
      'sites.create',
    ]);
    expect((await opLog(admin, '&user=nobody')).total).toBe(0);
    expect((await opLog(admin, '&action=sites.create')).total).toBe(2);
    expect((await opLog(admin, '&ip=203.0.113.7')).list.map((entry) => entry.account)).toEqual(['alice']);
    expect((await opLog(admin, `&target=${aliceSite.data.id}`)).list.map((entry) => entry.account)).toEqual(['alice']);
    const hourAgo = new Date(Date.now() - 3600_000).toISOString();
    const inAnHour = new Date(Date.now() + 3600_000).toISOString();
    expect((await opLog(admin, `&from=${hourAgo}&to=${inAnHour}`)).total).toBe(3);
    expect((await opLog(admin, `&from=${inAnHour}`)).total).toBe(0);
    const paged = await opLog(admin, '&limit=2&page=2');
    expect(paged).toMatchObject({ total: 3 });
    expect(paged.list).toHaveLength(1);
  });

  it('names the field of a bad query', async () => {
    for (const [query, field] of [
      ['from=yesterday', 'querystring/from'],
      ['target=1%25', 'querystring/target'],
      ['action=Sites%20Create', 'querystring/action'],
      ['limit=5000', 'querystring/limit'],
    ] as const) {
      const result = await test.call('GET', `/v1/log/op?${query}`, { token: alice });
      expect(result.body.code, query).toBe('invalid_param');
      expect(result.body.msg, query).toContain(field);
    }
    const login = await test.call('GET', '/v1/log/login?result=maybe', { token: alice });
    expect(login.body.msg).toContain('querystring/result');
  });

  it('logs each sign-in attempt with its address, agent and result, to the user and to admins', async () => {
    const attempt = (password: string) =>
      test.app.inject({
        method: 'POST',
        url: '/v1/login',
        headers: { 'user-agent': 'browser/2' },
        remoteAddress: '198.51.100.4',
        payload: { account: 'Alice', password },
      });
    expect((await attempt('wrong-pass')).statusCode).toBe(400);
    expect((await attempt('alice-pass')).statusCode).toBe(200);
    await test.login('bob', 'wrong-pass').catch(() => undefined);

    const own = await test.call('GET', '/v1/log/login?limit=100', { token: alice });
    const list = (own.body.data as { list: LoginEntry[] }).list;
    // addUser signed alice in once before these two.
    expect(list.map((entry) => entry.result)).toEqual(['ok', 'bad_credentials', 'ok']);
    expect(list[0]).toMatchObject({
      account: 'alice',
      ip: '198.51.100.4',
      user_agent: 'browser/2',
      method: 'password',
    });

    const admin = await test.login('admin', ADMIN_PASSWORD);
    const failed = await test.call('GET', '/v1/log/login?result=bad_credentials', { token: admin });
    expect((failed.body.data as { list: LoginEntry[] }).list.map((entry) => entry.account).sort()).toEqual([
      'alice',
      'bob',
    ]);
    const bobs = await test.call('GET', '/v1/log/login?account=bob&ip=127.0.0.1', { token: admin });
    expect((bobs.body.data as { total: number }).total).toBe(2);
    const notForBob = await test.call('GET', '/v1/log/login?account=alice', { token: bob });
    expect((notForBob.body.data as { list: LoginEntry[] }).list.every((entry) => entry.account === 'bob')).toBe(true);
  });

  it('finds what an admin did signed in as a user, and exports the same filter as CSV', async () => {
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const aliceId = (await test.call('GET', '/v1/user', { token: alice })).body.data as { id: number };
    const as = await test.call('POST', `/v1/users/${aliceId.id}/impersonate`, { token: admin });
    const asAlice = (as.body.data as { access_token: string }).access_token;
    await test.call('PUT', '/v1/user', { token: asAlice, body: { name: 'Changed, by "support"' } });
    await createSite(alice, 'own.example.com');
    await createSite(bob, '=cmd.example.com').catch(() => undefined);
    await createSite(bob, 'bob.example.com');

    const impersonated = await opLog(admin, '&impersonator=admin');
    expect(impersonated.list.map((entry) => [entry.account, entry.action])).toEqual([['alice', 'user.update']]);
    expect(impersonated.list[0]).toMatchObject({ impersonator_account: 'admin' });
    expect((await opLog(admin, '&impersonator=nobody')).total).toBe(0);

    const exported = await test.app.inject({
      method: 'GET',
      url: '/v1/log/op/export?user=alice',
      headers: { 'access-token': admin },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="operation-log-[0-9-]{10}\.csv"$/);
    const lines = exported.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'time,account,impersonator,auth_method,api_key_id,action,method,route,target_ids,changes,ip,user_agent,result',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^[0-9T:.Z-]+,alice,,session,,sites\.create,POST,\/v1\/sites,\d+,"\{""domains""/);
    expect(lines[2]).toContain(
      ',alice,admin,session,,user.update,PUT,/v1/user,,"{""name"":""Changed, by \\""support\\""""}"',
    );

    // A user exports only their own entries, whatever they ask for.
    const own = await test.app.inject({
      method: 'GET',
      url: '/v1/log/op/export?user=bob',
      headers: { 'access-token': alice },
    });
    expect(own.body).not.toContain('bob.example.com');
    expect(own.body.trimEnd().split('\r\n')).toHaveLength(3);
    const bad = await test.call('GET', '/v1/log/op/export?from=yesterday', { token: admin });
    expect(bad.body).toMatchObject({
      code: 'invalid_param',
      msg: expect.stringMatching(/^querystring\/from: must be an ISO 8601 time/),
    });
  });

  it('shows an API key’s first use of the day in the login log with method key', async () => {
    const issued = await test.call('POST', '/v1/api-key', { token: alice, body: { scope: 'read' } });
    const token = (issued.body.data as { token: string }).token;
    const useKey = () =>
      test.app.inject({
        method: 'GET',
        url: '/v1/user',
        headers: { 'access-token': token },
        remoteAddress: '192.0.2.8',
      });
    expect((await useKey()).statusCode).toBe(200);
    expect((await useKey()).statusCode).toBe(200);
    const keyEntries = async () => {
      const log = await test.call('GET', '/v1/log/login?limit=100', { token: alice });
      return (log.body.data as { list: LoginEntry[] }).list.filter((entry) => entry.method === 'key');
    };
    expect(await keyEntries()).toEqual([expect.objectContaining({ account: 'alice', ip: '192.0.2.8', result: 'ok' })]);
  });

  it('keeps entries at least 180 days, whatever the retention setting says', async () => {
    await createSite(alice, 'old.example.com');
    const now = Date.now();
    await test.database.db
      .updateTable('op_logs')
      .set({ created_at: now - 200 * DAY_MS })
      .execute();
    await createSite(alice, 'mid.example.com');
    await test.database.db
      .updateTable('op_logs')
      .set({ created_at: now - 100 * DAY_MS })
      .where('created_at', '>', now - DAY_MS)
      .execute();
    await saveSetting(test.database.db, 'log_retention_days', 30);
    await pruneAccountLogs(test.database.db, now);
    const left = await test.database.db.selectFrom('op_logs').select('created_at').execute();
    expect(left.map((row) => Number(row.created_at))).toEqual([now - 100 * DAY_MS]);
    await saveSetting(test.database.db, 'log_retention_days', 365);
    await pruneAccountLogs(test.database.db, now);
    expect(await test.database.db.selectFrom('op_logs').select('id').execute()).toHaveLength(1);
  });

  it('prunes the message-send and IP-switch logs with the same retention', async () => {
    const now = Date.now();
    const { db } = test.database;
    for (const days of [200, 100]) {
      await db
        .insertInto('message_sends')
        .values({
          channel: 'email',
          target: 'a@example.com',
          subject: 's',
          body: 'b',
          status: 'sent',
          error: '',
          created_at: now - days * DAY_MS,
        })
        .execute();
      await db
        .insertInto('ip_switch_log')
        .values({
          created_at: now - days * DAY_MS,
          ip: '192.0.2.1',
          node_id: 1,
          node_name: 'n1',
          line_group: 'lg',
          line: 'default',
          from_state: 'up',
          to_state: 'down',
          reason: 'probes',
          votes: '[]',
        })
        .execute();
    }
    await saveSetting(db, 'log_retention_days', 180);
    await pruneAccountLogs(db, now);
    const ages = async (table: 'message_sends' | 'ip_switch_log') =>
      (await db.selectFrom(table).select('created_at').execute()).map((row) => Number(row.created_at));
    expect(await ages('message_sends')).toEqual([now - 100 * DAY_MS]);
    expect(await ages('ip_switch_log')).toEqual([now - 100 * DAY_MS]);
  });
});
