import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { latestCode, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';

const base = { username: 'alice', password: 'alice-pass', email: 'alice@example.com', accept_agreement: true };

describe.each(DIALECTS)('registration on $dialect', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target);
  });
  afterEach(async () => {
    await test.close();
  });

  const sendEmailCode = (email: string) =>
    test.call('POST', '/v1/email-captcha', { body: { email, purpose: 'register' } });

  it('registers with the emailed code, signs the user in as type 2 and spends the code', async () => {
    const sent = await sendEmailCode('alice@example.com');
    expect(sent.body).toMatchObject({ code: 0, data: { expires_in: 600, resend_after: 60 } });
    const captcha = await latestCode(test, 'alice@example.com');
    const result = await test.call('POST', '/v1/user', { body: { ...base, captcha, qq: '123456' } });
    expect(result.body).toMatchObject({
      code: 0,
      data: { account: 'alice', type: 2, access: [], email: 'alice@example.com', qq: '123456' },
    });
    const token = (result.body.data as { access_token: string }).access_token;
    expect((await test.call('GET', '/v1/user', { token })).body).toMatchObject({ data: { account: 'alice' } });
    expect((await test.login('alice@example.com', 'alice-pass')).length).toBeGreaterThan(0);

    const reused = await test.call('POST', '/v1/user', { body: { ...base, username: 'alice2', captcha } });
    expect(reused.body.code).toBe('account_exists');
  });

  it('refuses a wrong code and counts the try', async () => {
    await sendEmailCode('alice@example.com');
    const result = await test.call('POST', '/v1/user', { body: { ...base, captcha: '000000' } });
    expect(result.body).toMatchObject({ code: 'verify_code_invalid', msg: 'captcha: the code is wrong' });
    const row = await test.database.db.selectFrom('verify_codes').select('attempts').executeTakeFirstOrThrow();
    expect(row.attempts).toBe(1);
  });

  it('names the missing required email and the short password', async () => {
    const noEmail = await test.call('POST', '/v1/user', {
      body: { username: 'bob', password: 'bob-pass', accept_agreement: true },
    });
    expect(noEmail.body).toMatchObject({ code: 'invalid_param', msg: 'email: is required' });
    const short = await test.call('POST', '/v1/user', { body: { ...base, password: '12345' } });
    expect(short.body).toMatchObject({
      code: 'invalid_param',
      msg: 'body/password: must be at least 6 and at most 128 characters',
    });
    const badName = await test.call('POST', '/v1/user', { body: { ...base, username: 'a b' } });
    expect(badName.body.msg).toBe('body/username: must be 3 to 32 letters, digits, _ . or -, not starting with . or -');
  });

  it('requires the agreement and refuses when registration is closed', async () => {
    const disagree = await test.call('POST', '/v1/user', { body: { ...base, accept_agreement: false } });
    expect(disagree.body.code).toBe('agreement_required');
    await saveSetting(test.database.db, 'register_open', false);
    expect((await test.call('GET', '/v1/common/register-info')).body.data).toMatchObject({ open: false });
    const closed = await test.call('POST', '/v1/user', { body: base });
    expect(closed.status).toBe(403);
    expect(closed.body.code).toBe('register_closed');
  });

  it('refuses a taken username in any case', async () => {
    const result = await test.call('POST', '/v1/user', { body: { ...base, username: 'Admin' } });
    expect(result.body).toMatchObject({ code: 'account_exists', msg: 'username: this username is already taken' });
  });

  it('waits out the resend interval before sending another code', async () => {
    await sendEmailCode('alice@example.com');
    const again = await sendEmailCode('alice@example.com');
    expect(again.status).toBe(429);
    expect(again.body.msg).toMatch(/^a code was sent recently; you can ask again in \d+ s$/);
  });

  it('registers with a phone number and the code texted to it', async () => {
    await test.call('POST', '/v1/phone-captcha', { body: { phone: '+8613800000000', purpose: 'register' } });
    const phone_captcha = await latestCode(test, '+8613800000000');
    await sendEmailCode('alice@example.com');
    const captcha = await latestCode(test, 'alice@example.com');
    const result = await test.call('POST', '/v1/user', {
      body: { ...base, captcha, phone: '+8613800000000', phone_captcha },
    });
    expect(result.body).toMatchObject({ code: 0, data: { phone: '+8613800000000' } });
  });
});
