import { SECRET_MASK } from '@rampart/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink.ts';
import { ADMIN_PASSWORD, latestCode, startTestApp, type TestApp } from '../../test/test-app.ts';

const SMTP = '/v1/configs/global-0-system-smtp';

const sendCode = (test: TestApp, email: string) =>
  test.call('POST', '/v1/email-captcha', { body: { email, purpose: 'register' } });

const sendRow = (test: TestApp, target: string) =>
  test.database.db.selectFrom('message_sends').selectAll().where('target', '=', target).executeTakeFirstOrThrow();

describe.each(DIALECTS)('email through the mail server saved in /sys/setting on $dialect', (target) => {
  const user = { name: 'mailer', password: 'smtp-pass-51c2' };
  let sink: SmtpSink;
  let test: TestApp;
  let admin: string;
  const saveServer = (server: SmtpSink, password = user.password) =>
    test.call('PUT', SMTP, {
      token: admin,
      body: {
        smtp_host: server.host,
        smtp_port: server.port,
        smtp_secure: false,
        smtp_username: user.name,
        smtp_password: password,
        smtp_from: 'Shop <no-reply@shop.test>',
      },
    });

  beforeEach(async () => {
    sink = await startSmtpSink(user);
    test = await startTestApp(target, { background: false, codeChannels: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
    await sink.close();
  });

  it('offers email codes once a server is saved, and delivers them there with its sealed password', async () => {
    const info = async () => (await test.call('GET', '/v1/common/register-info')).body.data;
    expect(await info()).toMatchObject({ email_code: false });
    expect((await saveServer(sink)).body.code).toBe(0);
    expect(await info()).toMatchObject({ email_code: true });

    expect((await sendCode(test, 'dave@example.com')).body.code).toBe(0);
    const code = await latestCode(test, 'dave@example.com');
    expect(sink.mails).toHaveLength(1);
    expect(sink.mails[0]).toMatchObject({ from: 'no-reply@shop.test', to: 'dave@example.com' });
    expect(sink.mails[0]?.text).toContain(`Your Rampart registration code is ${code}`);
    expect(await sendRow(test, 'dave@example.com')).toMatchObject({ status: 'sent', error: '' });
  });

  it('moves to another server as soon as the settings name it', async () => {
    const other = await startSmtpSink(user);
    try {
      await saveServer(sink);
      await sendCode(test, 'first@example.com');
      await saveServer(other, SECRET_MASK);
      await sendCode(test, 'second@example.com');
      expect(sink.mails.map((mail) => mail.to)).toEqual(['first@example.com']);
      expect(other.mails.map((mail) => mail.to)).toEqual(['second@example.com']);
    } finally {
      await other.close();
    }
  });

  it('records a refused sign-in at the server as failed with its error', async () => {
    await saveServer(sink, 'not-the-password');
    expect((await sendCode(test, 'erin@example.com')).body.code).toBe(0);
    const row = await sendRow(test, 'erin@example.com');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/Invalid username or password/);
    expect(sink.mails).toEqual([]);
  });
});

describe('email through RAMPART_SMTP_URL while no server is saved', () => {
  let sink: SmtpSink;
  let test: TestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    test = await startTestApp(
      { dialect: 'sqlite' },
      { codeChannels: false, env: { RAMPART_SMTP_URL: `smtp://${sink.host}:${sink.port}` } },
    );
  });
  afterAll(async () => {
    await test.close();
    await sink.close();
  });

  it('delivers the registration code by SMTP and logs it as sent', async () => {
    expect((await test.call('GET', '/v1/common/register-info')).body.data).toMatchObject({ email_code: true });
    expect((await sendCode(test, 'dave@example.com')).body.code).toBe(0);
    const code = await latestCode(test, 'dave@example.com');
    expect(sink.mails).toHaveLength(1);
    expect(sink.mails[0]?.to).toBe('dave@example.com');
    expect(sink.mails[0]?.text).toContain(`Your Rampart registration code is ${code}`);
    expect((await sendRow(test, 'dave@example.com')).status).toBe('sent');
  });

  it('records a failed delivery with its error instead of losing it', async () => {
    await sink.close();
    await sendCode(test, 'erin@example.com');
    const row = await sendRow(test, 'erin@example.com');
    expect(row.status).toBe('failed');
    expect(row.error).not.toBe('');
  });
});
