import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, latestCode, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DIALECTS)('password reset on $dialect', (target) => {
  let test: TestApp;
  let token: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    token = await test.login('admin', ADMIN_PASSWORD);
    // A new email needs the code sent to it (modules/profile).
    await test.call('POST', '/v1/user/email-captcha', { token, body: { email: 'ops@example.com' } });
    const captcha = await latestCode(test, 'ops@example.com');
    await test.call('PUT', '/v1/user', { token, body: { email: 'ops@example.com', captcha } });
  });
  afterEach(async () => {
    await test.close();
  });

  it('sets a new password with the emailed code and ends every session', async () => {
    await test.call('POST', '/v1/email-captcha', { body: { email: 'ops@example.com', purpose: 'reset' } });
    const captcha = await latestCode(test, 'ops@example.com');
    const result = await test.call('POST', '/v1/reset-pass', {
      body: { reset_by: 'email', email: 'ops@example.com', captcha, password: 'brand-new-pass' },
    });
    expect(result.body).toEqual({ code: 0, msg: 'ok', data: null });
    expect((await test.call('GET', '/v1/user', { token })).body.code).toBe('login_required');
    expect(
      (await test.call('POST', '/v1/login', { body: { account: 'admin', password: ADMIN_PASSWORD } })).body.code,
    ).toBe('bad_credentials');
    expect((await test.login('admin', 'brand-new-pass')).length).toBeGreaterThan(0);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const result = await test.call('POST', '/v1/email-captcha', {
      body: { email: 'nobody@example.com', purpose: 'reset' },
    });
    expect(result.body.code).toBe(0);
    const sends = await test.database.db.selectFrom('message_sends').selectAll().execute();
    expect(sends.filter((row) => row.target === 'nobody@example.com')).toEqual([]);
  });

  it('needs the address of the chosen channel', async () => {
    const result = await test.call('POST', '/v1/reset-pass', {
      body: { reset_by: 'phone', password: 'brand-new-pass' },
    });
    expect(result.body).toMatchObject({ code: 'invalid_param', msg: 'phone: is required to reset by phone' });
  });

  it('refuses a code issued for registration', async () => {
    await test.call('POST', '/v1/email-captcha', { body: { email: 'ops@example.com', purpose: 'register' } });
    const captcha = await latestCode(test, 'ops@example.com');
    const result = await test.call('POST', '/v1/reset-pass', {
      body: { reset_by: 'email', email: 'ops@example.com', captcha, password: 'brand-new-pass' },
    });
    expect(result.body.code).toBe('verify_code_invalid');
  });
});
