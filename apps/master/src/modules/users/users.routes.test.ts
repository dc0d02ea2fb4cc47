import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, latestCode, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DIALECTS)('current user on $dialect', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target);
  });
  afterEach(async () => {
    await test.close();
  });

  it('changes profile fields and validates each by its rule', async () => {
    const token = await test.login('admin', ADMIN_PASSWORD);
    // A new phone number needs the SMS code sent to it (modules/profile).
    await test.call('POST', '/v1/user/phone-captcha', { token, body: { phone: '+15550001' } });
    const phone_captcha = await latestCode(test, '+15550001');
    const updated = await test.call('PUT', '/v1/user', {
      token,
      body: { name: 'Ops', qq: '10001', phone: '+15550001', phone_captcha },
    });
    expect(updated.body).toMatchObject({ code: 0, data: { name: 'Ops', qq: '10001', phone: '+15550001' } });
    const bad = await test.call('PUT', '/v1/user', { token, body: { qq: '0123' } });
    expect(bad.body).toMatchObject({ code: 'invalid_param' });
    expect(bad.body.msg).toMatch(/^body\/qq/);
    expect((await test.call('GET', '/v1/user', { token })).body.data).toMatchObject({ qq: '10001' });
  });

  it('changes the password only with the current one, and ends the other sessions', async () => {
    const token = await test.login('admin', ADMIN_PASSWORD);
    const other = await test.login('admin', ADMIN_PASSWORD);
    const noOld = await test.call('PUT', '/v1/user', { token, body: { password: 'next-pass-1' } });
    expect(noOld.body).toMatchObject({ code: 'invalid_param', msg: 'old_password: is required to set a new password' });
    const wrongOld = await test.call('PUT', '/v1/user', {
      token,
      body: { password: 'next-pass-1', old_password: 'nope-nope' },
    });
    expect(wrongOld.body.code).toBe('bad_credentials');
    const changed = await test.call('PUT', '/v1/user', {
      token,
      body: { password: 'next-pass-1', old_password: ADMIN_PASSWORD },
    });
    expect(changed.body.code).toBe(0);
    expect((await test.call('GET', '/v1/user', { token })).body.code).toBe(0);
    expect((await test.call('GET', '/v1/user', { token: other })).body.code).toBe('login_required');
    expect((await test.login('admin', 'next-pass-1')).length).toBeGreaterThan(0);
  });
});
