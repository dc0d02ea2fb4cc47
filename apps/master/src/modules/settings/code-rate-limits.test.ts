import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';

const CAPTCHA = '/v1/configs/global-0-system-captcha';

describe.each(DIALECTS)('code sending limits on $dialect', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const saved = await test.call('PUT', CAPTCHA, {
      token: admin,
      body: {
        login_failure_limit: 5,
        login_failure_window_seconds: 900,
        login_ip_throttle_limit: 50,
        verify_code_ttl_seconds: 600,
        verify_code_resend_seconds: 60,
        verify_code_max_attempts: 5,
        verify_codes_per_hour: 3,
        verify_codes_per_ip_hour: 5,
      },
    });
    expect(saved.body.code).toBe(0);
  });
  afterEach(async () => {
    await test.close();
  });

  const sendCode = async (email: string, remoteAddress = '127.0.0.1') => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/email-captcha',
      remoteAddress,
      payload: { email, purpose: 'register' },
    });
    return { status: response.statusCode, body: response.json() as { code: number | string; msg: string } };
  };
  // As if the codes sent so far had been sent a while ago (past the resend interval, within the hour).
  const age = (ms: number) =>
    test.database.db
      .updateTable('verify_codes')
      .set((eb) => ({ created_at: eb('created_at', '-', ms) }))
      .execute();

  it('sends one code a minute and a few an hour to one address, and names the wait', async () => {
    expect((await sendCode('alice@example.com')).body.code).toBe(0);
    const soon = await sendCode('alice@example.com');
    expect(soon.status).toBe(429);
    expect(soon.body.code).toBe('too_many_requests');
    expect(soon.body.msg).toMatch(/^a code was sent recently; you can ask again in \d+ s$/);
    await age(61_000);
    expect((await sendCode('alice@example.com')).body.code).toBe(0);
    await age(61_000);
    expect((await sendCode('Alice@Example.com')).body.code).toBe(0);
    await age(61_000);
    const hourly = await sendCode('alice@example.com');
    expect(hourly.status).toBe(429);
    expect(hourly.body).toMatchObject({ code: 'too_many_requests' });
    expect(hourly.body.msg).toMatch(/^at most 3 codes an hour to the same address; you can ask again in 5[6-7] min$/);
    // An hour after the first, one more.
    await age(60 * 60_000 - 3 * 61_000);
    expect((await sendCode('alice@example.com')).body.code).toBe(0);
  });

  it('limits the codes one client address asks for, whatever the targets', async () => {
    for (let i = 0; i < 5; i++) expect((await sendCode(`n${i}@example.com`, '198.51.100.9')).body.code).toBe(0);
    const sixth = await sendCode('n5@example.com', '198.51.100.9');
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ code: 'too_many_requests' });
    expect(sixth.body.msg).toMatch(/^at most 5 codes an hour from your address; you can ask again in \d+ min$/);
    expect((await sendCode('n5@example.com', '198.51.100.10')).body.code).toBe(0);
  });
});
