import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { setUserStatus } from '../users/users.repository.ts';
import { hashToken } from './tokens.ts';

describe.each(DIALECTS)('sign-in and sessions on $dialect', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target);
  });
  afterEach(async () => {
    await test.close();
  });

  it('signs the first admin in and returns the user with token, type and access', async () => {
    const result = await test.call('POST', '/v1/login', { body: { account: 'admin', password: ADMIN_PASSWORD } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ code: 0, data: { account: 'admin', type: 1 } });
    const data = result.body.data as { access_token: string; access: string[]; password_hash?: string };
    expect(data.access_token.length).toBeGreaterThanOrEqual(43);
    expect(data.access).toContain('admin:sys');
    expect(data).not.toHaveProperty('password_hash');
  });

  it('accepts the account in any case but the password only exactly', async () => {
    expect(
      (await test.call('POST', '/v1/login', { body: { account: 'ADMIN', password: ADMIN_PASSWORD } })).body.code,
    ).toBe(0);
    const wrongCase = await test.call('POST', '/v1/login', {
      body: { account: 'admin', password: ADMIN_PASSWORD.toUpperCase() },
    });
    expect(wrongCase.status).toBe(400);
    expect(wrongCase.body).toEqual({ code: 'bad_credentials', msg: 'Wrong account or password', data: null });
  });

  it('answers a missing field with invalid_param naming the field', async () => {
    const result = await test.call('POST', '/v1/login', { body: { account: 'admin' } });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ code: 'invalid_param', msg: 'body/password: is required' });
  });

  it('rejects fields the payload does not have', async () => {
    const result = await test.call('POST', '/v1/login', { body: { account: 'admin', password: 'x', admin: true } });
    expect(result.body).toMatchObject({ code: 'invalid_param', msg: 'body/admin: is not an accepted field' });
  });

  it('stores only the hash of a token', async () => {
    const token = await test.login('admin', ADMIN_PASSWORD);
    const rows = await test.database.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.map((row) => row.token_hash)).toEqual([hashToken(token)]);
  });

  it('reads the session and the current user with the token, and login_required without one', async () => {
    const token = await test.login('admin', ADMIN_PASSWORD);
    expect((await test.call('GET', '/v1/common/auth', { token })).body).toMatchObject({
      code: 0,
      data: { user: { account: 'admin' } },
    });
    expect((await test.call('GET', '/v1/user', { token })).body).toMatchObject({ code: 0, data: { account: 'admin' } });
    const anonymous = await test.call('GET', '/v1/user');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('login_required');
  });

  it('ends the session on logout: the same token is refused on the next request', async () => {
    const token = await test.login('admin', ADMIN_PASSWORD);
    expect((await test.call('GET', '/v1/user', { token })).body.code).toBe(0); // session now cached
    expect((await test.call('DELETE', '/v1/common/auth', { token })).body.code).toBe(0);
    expect((await test.call('GET', '/v1/user', { token })).body.code).toBe('login_required');
  });

  it('refreshes: the new token works and the old one stops', async () => {
    const token = await test.login('admin', ADMIN_PASSWORD);
    expect((await test.call('GET', '/v1/user', { token })).body.code).toBe(0); // session now cached
    const refreshed = await test.call('POST', '/v1/common/auth', { token });
    const next = (refreshed.body.data as { access_token: string }).access_token;
    expect(next).not.toBe(token);
    expect((await test.call('GET', '/v1/user', { token: next })).body.code).toBe(0);
    expect((await test.call('GET', '/v1/user', { token })).body.code).toBe('login_required');
  });

  it('keeps an impersonation session marked and its end on refresh: no API key, writes logged with the admin', async () => {
    const admin = await test.login('admin', ADMIN_PASSWORD);
    await addUser(test, 'alice');
    const ids = await test.database.db.selectFrom('users').select(['id', 'username']).execute();
    const aliceId = Number(ids.find((row) => row.username === 'alice')?.id);
    const adminId = Number(ids.find((row) => row.username === 'admin')?.id);
    const made = data<{ access_token: string; expires_at: string }>(
      await test.call('POST', `/v1/users/${aliceId}/impersonate`, { token: admin }),
    );
    const refreshed = data<{ access_token: string; expires_at: string }>(
      await test.call('POST', '/v1/common/auth', { token: made.access_token }),
    );
    expect(refreshed.expires_at).toBe(made.expires_at);
    const as = refreshed.access_token;
    expect((await test.call('GET', '/v1/common/auth', { token: as })).body.data).toMatchObject({
      user: { account: 'alice' },
      expires_at: made.expires_at,
    });
    // A refresh of the refreshed token ends no later either.
    const again = data<{ access_token: string; expires_at: string }>(
      await test.call('POST', '/v1/common/auth', { token: as }),
    );
    expect(again.expires_at).toBe(made.expires_at);
    const key = await test.call('POST', '/v1/api-key', { token: again.access_token, body: { scope: 'write' } });
    expect(key.body.code).toBe('forbidden');
    expect(await test.database.db.selectFrom('api_keys').select('id').execute()).toEqual([]);
    data(await test.call('PUT', '/v1/user', { token: again.access_token, body: { name: 'Seen by support' } }));
    const logged = await test.database.db
      .selectFrom('op_logs')
      .select(['user_id', 'impersonator_id', 'action'])
      .where('user_id', '=', aliceId)
      .orderBy('id')
      .execute();
    expect(logged.map((row) => [row.action, Number(row.impersonator_id)])).toEqual([
      ['session.refresh', adminId],
      ['session.refresh', adminId],
      ['user.update', adminId],
    ]);
  });

  it('refuses the tokens of a user once disabled, and their next sign-in', async () => {
    const token = await test.login('admin', ADMIN_PASSWORD);
    expect((await test.call('GET', '/v1/user', { token })).body.code).toBe(0); // session now cached
    const admin = await test.database.db.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await setUserStatus(test.database.db, admin.id, 'disabled', Date.now());
    expect((await test.call('GET', '/v1/user', { token })).body.code).toBe('login_required');
    const again = await test.call('POST', '/v1/login', { body: { account: 'admin', password: ADMIN_PASSWORD } });
    expect(again.body.code).toBe('account_disabled');
  });

  it('requires an image captcha after 5 failures for the account, then accepts the right answer', async () => {
    const policy = () => test.call('GET', '/v1/user/login-policy?account=admin');
    expect((await policy()).body.data).toEqual({ captcha_required: false, two_factor_required: false });
    for (let i = 0; i < 5; i++) {
      await test.call('POST', '/v1/login', { body: { account: 'admin', password: `wrong-${i}` } });
    }
    expect((await policy()).body.data).toEqual({ captcha_required: true, two_factor_required: false });
    const noCaptcha = await test.call('POST', '/v1/login', { body: { account: 'admin', password: ADMIN_PASSWORD } });
    expect(noCaptcha.body.code).toBe('captcha_required');

    const image = await test.call('GET', '/v1/common/captcha');
    const { captcha, svg } = image.body.data as { captcha: string; svg: string };
    expect(svg).toMatch(/^<svg/);
    const wrong = await test.call('POST', '/v1/login', {
      body: { account: 'admin', password: ADMIN_PASSWORD, captcha, code: 'zzzzz' },
    });
    expect(wrong.body.code).toBe('captcha_invalid');

    // The answer is only stored hashed, so plant a captcha with a known answer.
    await test.database.db
      .insertInto('captchas')
      .values({ id: 'known', answer_hash: hashToken('abcde'), expires_at: Date.now() + 60_000 })
      .execute();
    const right = await test.call('POST', '/v1/login', {
      body: { account: 'admin', password: ADMIN_PASSWORD, captcha: 'known', code: 'ABCDE' },
    });
    expect(right.body.code).toBe(0);
    const replay = await test.call('POST', '/v1/login', {
      body: { account: 'admin', password: ADMIN_PASSWORD, captcha: 'known', code: 'abcde' },
    });
    expect(replay.body.code).toBe('captcha_invalid');
  });

  it('throttles an address with too many failures, and only that address', async () => {
    await saveSetting(test.database.db, 'login_ip_throttle_limit', 3);
    for (let i = 0; i < 3; i++)
      await test.call('POST', '/v1/login', { body: { account: 'nobody', password: 'wrong-pass' } });
    const throttled = await test.call('POST', '/v1/login', { body: { account: 'admin', password: ADMIN_PASSWORD } });
    expect(throttled.status).toBe(429);
    expect(throttled.body.code).toBe('throttled');
    const elsewhere = await test.app.inject({
      method: 'POST',
      url: '/v1/login',
      remoteAddress: '127.0.0.9',
      payload: { account: 'admin', password: ADMIN_PASSWORD },
    });
    expect(elsewhere.json().code).toBe(0);
  });
});
