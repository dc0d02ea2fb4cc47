import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestCode, startTestApp, type TestApp } from '../../test/test-app.ts';

describe('email over a real SMTP server on loopback', () => {
  const received: { to: string; text: string }[] = [];
  let smtp: SMTPServer;
  let test: TestApp;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let text = '';
        stream.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    test = await startTestApp({ dialect: 'sqlite' }, { env: { RAMPART_SMTP_URL: `smtp://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await test.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the registration code by SMTP and logs it as sent', async () => {
    const sent = await test.call('POST', '/v1/email-captcha', {
      body: { email: 'dave@example.com', purpose: 'register' },
    });
    expect(sent.body.code).toBe(0);
    const code = await latestCode(test, 'dave@example.com');
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toBe('dave@example.com');
    expect(received[0]?.text).toContain(`Your Rampart registration code is ${code}`);
    const row = await test.database.db.selectFrom('message_sends').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
  });

  it('records a failed delivery with its error instead of losing it', async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await test.call('POST', '/v1/email-captcha', { body: { email: 'erin@example.com', purpose: 'register' } });
    const row = await test.database.db
      .selectFrom('message_sends')
      .selectAll()
      .where('target', '=', 'erin@example.com')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.error).not.toBe('');
  });
});
