import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashToken } from '../auth/tokens.ts';
import { base32Decode, hotp, timeStep } from './totp.ts';

/** The code an authenticator app shows `offset` steps from now. */
const codeFor = (secret: string, offset = 0) => hotp(base32Decode(secret), timeStep(Date.now()) + offset);

describe.each(DIALECTS)('two-factor sign-in on $dialect', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target);
  });
  afterEach(async () => {
    await test.close();
  });

  const signIn = (body: Record<string, unknown>) =>
    test.call('POST', '/v1/login', { body: { account: 'alice', password: 'alice-pass', ...body } });

  /** alice with two-factor sign-in on: her token, secret and recovery codes. */
  async function enable() {
    const token = await addUser(test, 'alice');
    const started = await test.call('POST', '/v1/user/two-factor', { token, body: { password: 'alice-pass' } });
    expect(started.body.code).toBe(0);
    const { secret, otpauth_uri } = started.body.data as { secret: string; otpauth_uri: string };
    expect(otpauth_uri).toMatch(new RegExp(`^otpauth://totp/Rampart[^?]*:alice\\?secret=${secret}&`));
    const confirmed = await test.call('PUT', '/v1/user/two-factor', { token, body: { code: codeFor(secret) } });
    expect(confirmed.body.code).toBe(0);
    const { recovery_codes } = confirmed.body.data as { recovery_codes: string[] };
    return { token, secret, recoveryCodes: recovery_codes };
  }

  /** Turns two-factor sign-in on for the signed-in user of `token`. */
  async function turnOn(token: string, password: string) {
    const started = await test.call('POST', '/v1/user/two-factor', { token, body: { password } });
    const { secret } = started.body.data as { secret: string };
    expect((await test.call('PUT', '/v1/user/two-factor', { token, body: { code: codeFor(secret) } })).body.code).toBe(
      0,
    );
  }

  const lastLogin = async () =>
    test.database.db
      .selectFrom('login_attempts')
      .select(['success', 'reason', 'method'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  it('turns on with the password and a confirming code, and answers ten recovery codes once, stored hashed', async () => {
    const { token, recoveryCodes } = await enable();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[2-9a-z]{5}-[2-9a-z]{5}$/);
    const stored = await test.database.db.selectFrom('two_factor_recovery_codes').select('code_hash').execute();
    expect(stored.map((row) => row.code_hash)).not.toContain(recoveryCodes[0]);
    expect(stored.map((row) => row.code_hash)).toContain(hashToken(recoveryCodes[0]?.replace('-', '') ?? ''));
    const status = await test.call('GET', '/v1/user/two-factor', { token });
    expect(status.body.data).toMatchObject({ enabled: true, pending: false, recovery_codes_left: 10 });
    const sealed = await test.database.db.selectFrom('two_factor').select('secret_sealed').executeTakeFirstOrThrow();
    expect(sealed.secret_sealed).toMatch(/^v1\./);
  });

  it('refuses to start without the right password, and to confirm with a wrong code', async () => {
    const token = await addUser(test, 'alice');
    const wrong = await test.call('POST', '/v1/user/two-factor', { token, body: { password: 'nope' } });
    expect(wrong.body).toMatchObject({ code: 'bad_credentials', msg: 'password: the current password is wrong' });
    const missing = await test.call('POST', '/v1/user/two-factor', { token, body: {} });
    expect(missing.body).toMatchObject({ code: 'invalid_param', msg: 'body/password: is required' });
    const notStarted = await test.call('PUT', '/v1/user/two-factor', { token, body: { code: '123456' } });
    expect(notStarted.body.code).toBe('not_found');
    const started = await test.call('POST', '/v1/user/two-factor', { token, body: { password: 'alice-pass' } });
    const { secret } = started.body.data as { secret: string };
    const badShape = await test.call('PUT', '/v1/user/two-factor', { token, body: { code: '12a456' } });
    expect(badShape.body.code).toBe('invalid_param');
    expect(badShape.body.msg).toMatch(/^body\/code: must be 6 digits/);
    const stale = await test.call('PUT', '/v1/user/two-factor', { token, body: { code: codeFor(secret, -3) } });
    expect(stale.body).toMatchObject({ code: 'two_factor_invalid' });
    expect(stale.body.msg).toMatch(/^code: /);
    expect((await test.call('GET', '/v1/user/two-factor', { token })).body.data).toMatchObject({
      enabled: false,
      pending: true,
    });
    // Not on yet: the password alone still signs in.
    expect((await signIn({})).body.code).toBe(0);
  });

  it('then asks for the code at sign-in, accepts a current one once, and logs the method', async () => {
    const { secret } = await enable();
    const noCode = await signIn({});
    expect(noCode.body).toMatchObject({ code: 'two_factor_required', data: null });
    expect(noCode.body.msg).toMatch(/^code: /);
    // A right password awaiting its code is neither a failure nor a sign-in: the newest entry is alice's first.
    expect(await lastLogin()).toEqual({ success: 1, reason: '', method: 'password' });
    const wrong = await signIn({ code: codeFor(secret, -5) });
    expect(wrong.body.code).toBe('two_factor_invalid');
    expect(await lastLogin()).toEqual({ success: 0, reason: 'two_factor', method: 'totp' });
    // The confirming code used this step; the app's next code (one step ahead is accepted) signs in.
    const next = codeFor(secret, 1);
    const ok = await signIn({ code: next });
    expect(ok.body.code).toBe(0);
    expect(await lastLogin()).toEqual({ success: 1, reason: '', method: 'totp' });
    const replay = await signIn({ code: next });
    expect(replay.body.code).toBe('two_factor_invalid');
  });

  it('accepts each recovery code once, with spaces or capitals, and logs it as recovery', async () => {
    const { token, recoveryCodes } = await enable();
    const [first = '', second = ''] = recoveryCodes;
    expect((await signIn({ code: first.toUpperCase().replace('-', ' ') })).body.code).toBe(0);
    expect(await lastLogin()).toEqual({ success: 1, reason: '', method: 'recovery' });
    expect((await signIn({ code: first })).body.code).toBe('two_factor_invalid');
    expect(await lastLogin()).toMatchObject({ success: 0, method: 'recovery' });
    expect((await signIn({ code: second })).body.code).toBe(0);
    expect((await test.call('GET', '/v1/user/two-factor', { token })).body.data).toMatchObject({
      recovery_codes_left: 8,
    });
    const fresh = await test.call('POST', '/v1/user/two-factor/recovery-codes', {
      token,
      body: { password: 'alice-pass' },
    });
    const { recovery_codes } = fresh.body.data as { recovery_codes: string[] };
    expect((await signIn({ code: recoveryCodes[2] })).body.code).toBe('two_factor_invalid');
    expect((await signIn({ code: recovery_codes[0] })).body.code).toBe(0);
  });

  it('after a captcha, lets the same address send the code without a new captcha, and tells the login policy', async () => {
    const { secret } = await enable();
    for (let i = 0; i < 5; i++) await signIn({ password: `wrong-${i}` });
    const policy = () => test.call('GET', '/v1/user/login-policy?account=alice');
    expect((await policy()).body.data).toEqual({ captcha_required: true, two_factor_required: false });
    // Only a captcha answer that is known can be planted: the stored answer is a hash.
    await test.database.db
      .insertInto('captchas')
      .values({ id: 'known', answer_hash: hashToken('abcde'), expires_at: Date.now() + 60_000 })
      .execute();
    const first = await signIn({ captcha: 'known', code: 'abcde' });
    expect(first.body.code).toBe('two_factor_required');
    expect((await policy()).body.data).toEqual({ captcha_required: false, two_factor_required: true });
    const elsewhere = await test.app.inject({
      method: 'GET',
      url: '/v1/user/login-policy?account=alice',
      remoteAddress: '127.0.0.9',
    });
    expect(elsewhere.json().data).toEqual({ captcha_required: true, two_factor_required: false });
    const second = await signIn({ code: codeFor(secret, 1) });
    expect(second.body.code).toBe(0);
    // Spent: the next sign-in needs the captcha again.
    expect((await policy()).body.data).toEqual({ captcha_required: true, two_factor_required: false });
  });

  it('ends the captcha-free wait after five wrong codes or a wrong password', async () => {
    await enable();
    for (let i = 0; i < 5; i++) await signIn({ password: `wrong-${i}` });
    await test.database.db
      .insertInto('captchas')
      .values({ id: 'known', answer_hash: hashToken('abcde'), expires_at: Date.now() + 60_000 })
      .execute();
    expect((await signIn({ captcha: 'known', code: 'abcde' })).body.code).toBe('two_factor_required');
    for (let i = 0; i < 5; i++) expect((await signIn({ code: '000000' })).body.code).toMatch(/two_factor_invalid/);
    expect((await signIn({ code: '000000' })).body.code).toBe('captcha_required');

    await test.database.db
      .insertInto('captchas')
      .values({ id: 'again', answer_hash: hashToken('fghij'), expires_at: Date.now() + 60_000 })
      .execute();
    expect((await signIn({ captcha: 'again', code: 'fghij' })).body.code).toBe('two_factor_required');
    expect((await signIn({ password: 'guess', code: '000000' })).body.code).toBe('bad_credentials');
    expect((await signIn({ code: '000000' })).body.code).toBe('captcha_required');
  });

  it('turns off with a current code or the password, not without either', async () => {
    const { token, secret } = await enable();
    const bare = await test.call('DELETE', '/v1/user/two-factor', { token, body: {} });
    expect(bare.body).toMatchObject({ code: 'invalid_param' });
    expect(bare.body.msg).toMatch(/^code: is required/);
    const wrongPassword = await test.call('DELETE', '/v1/user/two-factor', { token, body: { password: 'nope' } });
    expect(wrongPassword.body.code).toBe('bad_credentials');
    const wrongCode = await test.call('DELETE', '/v1/user/two-factor', { token, body: { code: codeFor(secret, -4) } });
    expect(wrongCode.body.code).toBe('two_factor_invalid');
    const off = await test.call('DELETE', '/v1/user/two-factor', { token, body: { code: codeFor(secret, 1) } });
    expect(off.body.code).toBe(0);
    expect((await signIn({})).body.code).toBe(0);
    expect(await test.database.db.selectFrom('two_factor_recovery_codes').selectAll().execute()).toEqual([]);
  });

  it('stops taking proofs after five wrong ones, so a stolen session cannot guess its way to turning it off', async () => {
    const { token, secret } = await enable();
    for (let i = 0; i < 3; i++) {
      const wrong = await test.call('DELETE', '/v1/user/two-factor', { token, body: { code: '000000' } });
      expect(wrong.body.code).toBe('two_factor_invalid');
    }
    for (let i = 0; i < 2; i++) {
      const wrong = await test.call('DELETE', '/v1/user/two-factor', { token, body: { password: 'guess' } });
      expect(wrong.body.code).toBe('bad_credentials');
    }
    const right = await test.call('DELETE', '/v1/user/two-factor', { token, body: { code: codeFor(secret, 1) } });
    expect(right.body).toMatchObject({ code: 'throttled' });
    expect((await test.call('GET', '/v1/user/two-factor', { token })).body.data).toMatchObject({ enabled: true });
  });

  it('is reset by an admin for a user, and by no one else', async () => {
    await enable();
    const alice = await test.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    const bob = await addUser(test, 'bob');
    const byUser = await test.call('DELETE', `/v1/users/${alice.id}/two-factor`, { token: bob });
    expect(byUser.body.code).toBe('forbidden');
    expect((await test.call('GET', `/v1/users/${alice.id}/two-factor`, { token: bob })).body.code).toBe('forbidden');
    expect((await signIn({})).body.code).toBe('two_factor_required');
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const badId = await test.call('DELETE', '/v1/users/abc/two-factor', { token: admin });
    expect(badId.body.code).toBe('invalid_param');
    expect(badId.body.msg).toMatch(/^params\/id/);
    expect((await test.call('DELETE', '/v1/users/999999/two-factor', { token: admin })).body.code).toBe('not_found');
    const seen = await test.call('GET', `/v1/users/${alice.id}/two-factor`, { token: admin });
    expect(seen.body.data).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    const reset = await test.call('DELETE', `/v1/users/${alice.id}/two-factor`, { token: admin });
    expect(reset.body.code).toBe(0);
    expect((await test.call('GET', `/v1/users/${alice.id}/two-factor`, { token: admin })).body.data).toMatchObject({
      enabled: false,
    });
    expect((await signIn({})).body.code).toBe(0);
    expect((await test.call('DELETE', `/v1/users/${alice.id}/two-factor`, { token: admin })).body.code).toBe(
      'not_found',
    );
  });

  it("is not reset by a sub-admin on an admin holding a code it lacks, nor by anyone on the root admin's", async () => {
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const staff = async (username: string, access: string[]) => {
      const made = await test.call('POST', '/v1/users', {
        token: admin,
        body: { username, password: `${username}-pass`, type: 1, access },
      });
      return { id: (made.body.data as { id: number }).id, token: await test.login(username, `${username}-pass`) };
    };
    const helper = await staff('helper', ['admin:user']);
    const ops = await staff('ops', ['admin:user', 'admin:node']);
    const rootId = Number(
      (
        await test.database.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'admin')
          .executeTakeFirstOrThrow()
      ).id,
    );
    await turnOn(ops.token, 'ops-pass');
    await turnOn(admin, ADMIN_PASSWORD);
    const onOps = await test.call('DELETE', `/v1/users/${ops.id}/two-factor`, { token: helper.token });
    expect(onOps.body).toMatchObject({ code: 'forbidden', msg: 'id: ops holds admin:node, which you do not hold' });
    for (const token of [helper.token, ops.token]) {
      const onRoot = await test.call('DELETE', `/v1/users/${rootId}/two-factor`, { token });
      expect(onRoot.body).toMatchObject({
        code: 'forbidden',
        msg: 'id: admin is the root admin; only the root admin changes it',
      });
    }
    for (const id of [ops.id, rootId]) {
      const status = await test.call('GET', `/v1/users/${id}/two-factor`, { token: admin });
      expect(status.body.data).toMatchObject({ enabled: true });
    }
    expect((await test.call('DELETE', `/v1/users/${ops.id}/two-factor`, { token: admin })).body.code).toBe(0);
  });

  it('lets an admin signed in as the user read it but not change it', async () => {
    const { secret } = await enable();
    const alice = await test.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const made = await test.call('POST', `/v1/users/${alice.id}/impersonate`, { token: admin });
    const as = (made.body.data as { access_token: string }).access_token;
    expect((await test.call('GET', '/v1/user/two-factor', { token: as })).body.data).toMatchObject({ enabled: true });
    const off = await test.call('DELETE', '/v1/user/two-factor', { token: as, body: { code: codeFor(secret, 1) } });
    expect(off.body).toMatchObject({ code: 'forbidden', msg: 'an admin signed in as this user cannot do this' });
    const codes = await test.call('POST', '/v1/user/two-factor/recovery-codes', {
      token: as,
      body: { password: 'alice-pass' },
    });
    expect(codes.body.code).toBe('forbidden');
    expect((await signIn({})).body.code).toBe('two_factor_required');
  });

  it("keeps each user's own: bob's calls never touch alice's two-factor sign-in", async () => {
    const { secret } = await enable();
    const bob = await addUser(test, 'bob');
    expect((await test.call('GET', '/v1/user/two-factor', { token: bob })).body.data).toMatchObject({
      enabled: false,
      pending: false,
    });
    const bobOff = await test.call('DELETE', '/v1/user/two-factor', { token: bob, body: { code: codeFor(secret, 1) } });
    expect(bobOff.body.code).toBe('not_found');
    expect((await signIn({})).body.code).toBe('two_factor_required');
  });
});
