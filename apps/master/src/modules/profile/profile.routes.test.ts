import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, latestCode, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DIALECTS)('profile contact changes on $dialect', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target);
  });
  afterEach(async () => {
    await test.close();
  });

  it('changes the email only with the code sent to the new address', async () => {
    const token = await addUser(test, 'alice');
    const withoutCode = await test.call('PUT', '/v1/user', { token, body: { email: 'alice@example.com' } });
    expect(withoutCode.body).toMatchObject({ code: 'invalid_param' });
    expect(withoutCode.body.msg).toMatch(/^captcha: is required/);
    const sent = await test.call('POST', '/v1/user/email-captcha', { token, body: { email: 'alice@example.com' } });
    expect(sent.body).toMatchObject({ code: 0, data: { expires_in: expect.any(Number) } });
    const code = await latestCode(test, 'alice@example.com');
    const wrong = await test.call('PUT', '/v1/user', {
      token,
      body: { email: 'alice@example.com', captcha: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.body).toMatchObject({ code: 'verify_code_invalid', msg: 'captcha: the code is wrong' });
    const changed = await test.call('PUT', '/v1/user', { token, body: { email: 'alice@example.com', captcha: code } });
    expect(changed.body).toMatchObject({ code: 0, data: { email: 'alice@example.com' } });
    // Spent: the same code does not change it again.
    const again = await test.call('PUT', '/v1/user', { token, body: { email: 'ALICE@example.com', captcha: code } });
    expect(again.body.code).toBe(0);
  });

  it('changes the phone only with the SMS code, and the other fields need none', async () => {
    const token = await addUser(test, 'alice');
    const plain = await test.call('PUT', '/v1/user', { token, body: { name: 'Alice', qq: '10001' } });
    expect(plain.body).toMatchObject({ code: 0, data: { name: 'Alice', qq: '10001' } });
    const noCode = await test.call('PUT', '/v1/user', { token, body: { phone: '+8613800000001' } });
    expect(noCode.body.msg).toMatch(/^phone_captcha: is required/);
    await test.call('POST', '/v1/user/phone-captcha', { token, body: { phone: '+8613800000001' } });
    const phone_captcha = await latestCode(test, '+8613800000001');
    const changed = await test.call('PUT', '/v1/user', { token, body: { phone: '+8613800000001', phone_captcha } });
    expect(changed.body).toMatchObject({ code: 0, data: { phone: '+8613800000001' } });
    const cleared = await test.call('PUT', '/v1/user', { token, body: { phone: '' } });
    expect(cleared.body).toMatchObject({ code: 0, data: { phone: '' } });
  });

  it('binds a code to the user who asked: another user cannot spend it on the same address', async () => {
    const alice = await addUser(test, 'alice');
    const bob = await addUser(test, 'bob');
    await test.call('POST', '/v1/user/email-captcha', { token: alice, body: { email: 'shared@example.com' } });
    const captcha = await latestCode(test, 'shared@example.com');
    const stolen = await test.call('PUT', '/v1/user', { token: bob, body: { email: 'shared@example.com', captcha } });
    expect(stolen.body.code).toBe('verify_code_invalid');
    const own = await test.call('PUT', '/v1/user', { token: alice, body: { email: 'shared@example.com', captcha } });
    expect(own.body.code).toBe(0);
    const taken = await test.call('POST', '/v1/user/email-captcha', {
      token: bob,
      body: { email: 'shared@example.com' },
    });
    expect(taken.body).toMatchObject({
      code: 'account_exists',
      msg: 'email: this email address is already registered',
    });
  });

  it('names the field of a bad address, refuses the current one, and limits how often codes go out', async () => {
    const token = await addUser(test, 'alice');
    const bad = await test.call('POST', '/v1/user/email-captcha', { token, body: { email: 'not-an-email' } });
    expect(bad.body.code).toBe('invalid_param');
    expect(bad.body.msg).toMatch(/^body\/email: must be an email address/);
    const badPhone = await test.call('POST', '/v1/user/phone-captcha', { token, body: { phone: '12ab' } });
    expect(badPhone.body.msg).toMatch(/^body\/phone: /);
    const unsigned = await test.call('POST', '/v1/user/email-captcha', { body: { email: 'a@example.com' } });
    expect(unsigned.body.code).toBe('login_required');
    await test.call('POST', '/v1/user/email-captcha', { token, body: { email: 'first@example.com' } });
    const resend = await test.call('POST', '/v1/user/email-captcha', { token, body: { email: 'first@example.com' } });
    expect(resend.body.code).toBe('too_many_requests');
    for (let i = 0; i < 9; i++) {
      const sent = await test.call('POST', '/v1/user/email-captcha', { token, body: { email: `n${i}@example.com` } });
      expect(sent.body.code).toBe(0);
    }
    const eleventh = await test.call('POST', '/v1/user/email-captcha', { token, body: { email: 'last@example.com' } });
    expect(eleventh.body).toMatchObject({ code: 'throttled', msg: 'at most 10 codes an hour; try again later' });
  });
});
