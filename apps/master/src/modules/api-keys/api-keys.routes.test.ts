import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { findUserByAccount, setUserStatus } from '../users/users.repository.ts';
import { KEYS_PER_HOUR } from './api-keys.service.ts';

interface Issued {
  key_id: string;
  secret: string;
  token: string;
  scope: string;
  allow_ips: string[];
}

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };

describe.each(DIALECTS)('API keys on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  const issue = async (body: unknown, method: 'POST' | 'PUT' = 'POST') => {
    const result = await test.call(method, '/v1/api-key', { token: alice, body });
    expect(result.body.code, result.body.msg).toBe(0);
    return result.body.data as Issued;
  };
  /** A call that presents the key as Access-Token, from an address of our choosing. */
  const withKey = async (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { body?: object; ip?: string } = {},
  ) => {
    const response = await test.app.inject({
      method,
      url,
      headers: { 'access-token': token },
      remoteAddress: options.ip ?? '127.0.0.1',
      ...(options.body && { payload: options.body }),
    });
    return {
      status: response.statusCode,
      body: response.json() as { code: number | string; msg: string; data: unknown },
    };
  };

  it('shows the secret once and stores only its hash', async () => {
    const key = await issue({ scope: 'read' });
    expect(key.key_id).toMatch(/^ak_[0-9a-f]{16}$/);
    expect(key.token).toBe(`${key.key_id}.${key.secret}`);
    const shown = await test.call('GET', '/v1/api-key', { token: alice });
    expect(shown.body.data).toMatchObject({ key_id: key.key_id, scope: 'read', allow_ips: [] });
    expect(JSON.stringify(shown.body.data)).not.toContain(key.secret);
    const rows = await test.database.db.selectFrom('api_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(key.secret);
  });

  it('acts as its user for reads; a read-only key is refused writes, and no key manages keys or sessions', async () => {
    const key = await issue({ scope: 'read' });
    const me = await withKey(key.token, 'GET', '/v1/user');
    expect(me.body.data).toMatchObject({ username: 'alice' });
    // A key has no session end: the session read says so rather than failing on a date.
    const session = await withKey(key.token, 'GET', '/v1/common/auth');
    expect(session.body).toMatchObject({ code: 0, data: { user: { account: 'alice' }, expires_at: null } });
    const write = await withKey(key.token, 'PUT', '/v1/user', { body: { name: 'Mallory' } });
    expect(write).toMatchObject({ status: 403, body: { code: 'forbidden', msg: 'this API key is read-only' } });

    await issue({ scope: 'write' }, 'PUT');
    const site = await withKey(key.token, 'POST', '/v1/sites', {
      body: { domains: ['key.example.com'], origins: [origin] },
    });
    expect(site.body.code, site.body.msg).toBe(0);
    expect((await withKey(key.token, 'DELETE', '/v1/api-key')).body.code).toBe('forbidden');
    expect((await withKey(key.token, 'POST', '/v1/common/auth')).body.code).toBe('forbidden');

    const log = await test.call('GET', '/v1/log/op', { token: alice });
    const entries = (log.body.data as { list: { action: string; auth_method: string; api_key_id: string | null }[] })
      .list;
    expect(entries[0]).toMatchObject({ action: 'sites.create', auth_method: 'key', api_key_id: key.key_id });
    expect(entries[1]).toMatchObject({ action: 'api-key.update', auth_method: 'session', api_key_id: null });
  });

  it('works only from the addresses of its allow list', async () => {
    const key = await issue({ scope: 'read', allow_ips: ['203.0.113.0/24', '2001:db8::1'] });
    expect((await withKey(key.token, 'GET', '/v1/user', { ip: '203.0.113.9' })).body.code).toBe(0);
    expect((await withKey(key.token, 'GET', '/v1/user', { ip: '::ffff:203.0.113.10' })).body.code).toBe(0);
    expect((await withKey(key.token, 'GET', '/v1/user', { ip: '2001:db8::1' })).body.code).toBe(0);
    const outside = await withKey(key.token, 'GET', '/v1/user', { ip: '198.51.100.1' });
    expect(outside).toMatchObject({
      status: 403,
      body: { code: 'forbidden', msg: 'this API key is not allowed from 198.51.100.1' },
    });
  });

  it('stops a key at once when it is rotated, deleted or its user disabled', async () => {
    const first = await issue({ scope: 'read' });
    expect((await withKey(first.token, 'GET', '/v1/user')).body.code).toBe(0);
    const second = await issue({ rotate: true }, 'PUT');
    expect(second.key_id).not.toBe(first.key_id);
    expect((await withKey(first.token, 'GET', '/v1/user')).body.code).toBe('login_required');
    expect((await withKey(second.token, 'GET', '/v1/user')).body.code).toBe(0);

    expect((await test.call('DELETE', '/v1/api-key', { token: alice })).body.code).toBe(0);
    expect((await withKey(second.token, 'GET', '/v1/user')).body.code).toBe('login_required');
    expect((await test.call('GET', '/v1/api-key', { token: alice })).body.data).toBeNull();

    const third = await issue({ scope: 'read' });
    expect((await withKey(third.token, 'GET', '/v1/user')).body.code).toBe(0);
    const user = await findUserByAccount(test.database.db, 'alice');
    await setUserStatus(test.database.db, user?.id ?? 0, 'disabled', Date.now());
    expect((await withKey(third.token, 'GET', '/v1/user')).body.code).toBe('login_required');
  });

  it(`makes at most ${KEYS_PER_HOUR} keys an hour per user`, async () => {
    await issue({ scope: 'read' });
    for (let i = 1; i < KEYS_PER_HOUR; i++) await issue({ rotate: true }, 'PUT');
    const over = await test.call('PUT', '/v1/api-key', { token: alice, body: { rotate: true } });
    expect(over).toMatchObject({ status: 429, body: { code: 'too_many_requests' } });
    expect(over.body.msg).toMatch(/^at most 5 API keys can be made an hour; you can make another in (59|60) min$/);
    // A change that makes no key is not limited.
    expect((await test.call('PUT', '/v1/api-key', { token: alice, body: { scope: 'write' } })).body.code).toBe(0);
  });

  it('answers two creations at once without a server error, and leaves one live key', async () => {
    const answers = await Promise.all(
      [0, 1, 2].map(() => test.call('POST', '/v1/api-key', { token: alice, body: { scope: 'read' } })),
    );
    for (const answer of answers) expect(['0', 'conflict']).toContain(String(answer.body.code));
    const created = answers.filter((answer) => answer.body.code === 0);
    expect(created).toHaveLength(1);
    const live = created[0];
    const current = await test.call('GET', '/v1/api-key', { token: alice });
    expect((current.body.data as { key_id: string } | null)?.key_id).toBe(
      (live?.body.data as { key_id: string } | undefined)?.key_id,
    );
  });

  it('names the field and rule of bad input', async () => {
    const cases: [string, 'POST' | 'PUT', unknown, string, string][] = [
      ['scope', 'POST', { scope: 'admin' }, 'invalid_param', 'body/scope'],
      ['address', 'POST', { scope: 'read', allow_ips: ['300.1.1.1'] }, 'invalid_param', 'body/allow_ips/0'],
      [
        'prefix',
        'POST',
        { scope: 'read', allow_ips: ['10.0.0.0/8', '10.0.0.0/33'] },
        'invalid_param',
        'body/allow_ips/1',
      ],
      ['extra field', 'POST', { scope: 'read', secret: 'mine' }, 'invalid_param', 'body/secret'],
      ['no key yet', 'PUT', { rotate: true }, 'not_found', 'create one first'],
    ];
    for (const [name, method, body, code, text] of cases) {
      const result = await test.call(method, '/v1/api-key', { token: alice, body });
      expect(result.body.code, name).toBe(code);
      expect(result.body.msg, name).toContain(text);
    }
    await issue({ scope: 'read' });
    expect((await test.call('POST', '/v1/api-key', { token: alice, body: { scope: 'read' } })).body.code).toBe(
      'conflict',
    );
  });
});
