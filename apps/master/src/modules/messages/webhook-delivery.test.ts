import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSecretKey, secretBox } from '../../secrets.ts';
import { makeCert } from '../../test/certs.ts';
import { DIALECTS, otherMasterHandle } from '../../test/databases.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createMessenger } from './messenger.ts';
import { createNotifier, type Notifier } from './notifier.ts';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from './webhook-delivery.ts';

interface Received {
  body: string;
  signatureOk: boolean;
  timestamp: string;
}

/** A real HTTPS receiver on loopback with a self-signed certificate, checking each signature. */
async function startReceiver(cert: { cert: string; key: string }) {
  const received: Received[] = [];
  const state = { secret: '', failFirst: 0 };
  const server: Server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const expected = Buffer.from(`sha256=${createHmac('sha256', state.secret).update(body).digest('hex')}`);
      const given = Buffer.from(String(req.headers['x-rampart-signature'] ?? ''));
      const signatureOk = given.length === expected.length && timingSafeEqual(given, expected);
      received.push({ body, signatureOk, timestamp: String(req.headers['x-rampart-timestamp'] ?? '') });
      const fail = received.length <= state.failFirst || !signatureOk;
      res.writeHead(fail ? 503 : 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    state,
    url: `https://127.0.0.1:${port}/hooks/rampart`,
    close: () => new Promise((r) => server.close(r)),
  };
}

const cert = makeCert(['127.0.0.1']);

describe.each(DIALECTS)('signed webhooks with retries on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** The master's notifier over the same database and secret key (what a background round runs). */
  let notifier: Notifier;
  beforeEach(async () => {
    receiver = await startReceiver(cert);
    test = await startTestApp(target, { background: false, webhooks: { ca: cert.cert, allowPrivateTargets: true } });
    alice = await addUser(test, 'alice');
    const { db } = test.database;
    notifier = createNotifier({
      db,
      log: test.app.log,
      messenger: createMessenger({ db, log: test.app.log, smtpFrom: 'test@localhost' }),
      secrets: secretBox(loadSecretKey(test.database.dataDir, undefined)),
      webhooks: { ca: cert.cert, allowPrivateTargets: true },
    });
    const saved = await test.call('PUT', '/v1/messages/sub', {
      token: alice,
      body: {
        webhook_url: receiver.url,
        generate_secret: true,
        types: [{ type: 'system', in_app: true, email: false, sms: false, webhook: true }],
      },
    });
    expect(saved.body.code, saved.body.msg).toBe(0);
    receiver.state.secret = (saved.body.data as { webhook_secret: string }).webhook_secret;
  });
  afterEach(async () => {
    await test.close();
    await receiver.close();
  });

  const attempts = () =>
    test.database.db
      .selectFrom('message_sends')
      .select(['status', 'error', 'target'])
      .where('channel', '=', 'webhook')
      .orderBy('id')
      .execute();
  const aliceId = async () =>
    Number(
      (
        await test.database.db
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'alice')
          .executeTakeFirstOrThrow()
      ).id,
    );

  it('posts the message signed with the secret over a verified TLS connection, and the test button does too', async () => {
    const result = await notifier.notify(await aliceId(), 'system', { title: 'Hello', body: 'World' });
    expect(result.webhook).toBe('sent');
    expect(receiver.received).toHaveLength(1);
    const [first] = receiver.received;
    expect(first?.signatureOk).toBe(true);
    expect(Number(first?.timestamp)).toBeGreaterThan(0);
    expect(JSON.parse(first?.body ?? '{}')).toMatchObject({
      type: 'system',
      title: 'Hello',
      body: 'World',
      message_id: result.message_id,
    });
    expect(await attempts()).toEqual([{ status: 'sent', error: '', target: receiver.url }]);
    const tested = await test.call('PUT', '/v1/messages/sub', { token: alice, body: { send_test: true } });
    expect(tested.body.data).toMatchObject({ test: { status: 'sent', error: '' } });
    expect(receiver.received).toHaveLength(2);
  });

  it('retries a failed delivery from the persisted queue after 1, 5 and 30 minutes, logging every attempt', async () => {
    receiver.state.failFirst = 2;
    const start = Date.now();
    const result = await notifier.notify(await aliceId(), 'system', { title: 'Retry me', body: 'please' }, start);
    expect(result.webhook).toBe('queued');
    // Nothing is due before the first delay has passed.
    expect(await notifier.runDueWebhooks(start + WEBHOOK_RETRY_DELAYS_MS[0] - 1)).toBe(0);
    expect(await notifier.runDueWebhooks(start + WEBHOOK_RETRY_DELAYS_MS[0])).toBe(1);
    const second = start + WEBHOOK_RETRY_DELAYS_MS[0];
    expect(await notifier.runDueWebhooks(second + WEBHOOK_RETRY_DELAYS_MS[1])).toBe(1);
    expect(receiver.received.map((r) => r.signatureOk)).toEqual([true, true, true]);
    expect((await attempts()).map((a) => [a.status, a.error])).toEqual([
      ['failed', 'HTTP 503'],
      ['failed', 'HTTP 503'],
      ['sent', ''],
    ]);
    const row = await test.database.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'sent', attempts: 3 });
  });

  it('sends each due retry once though two masters run their retry rounds at the same moment', async () => {
    const other = await otherMasterHandle(test.database, target);
    const messenger = createMessenger({ db: other.db, log: test.app.log, smtpFrom: 'test@localhost' });
    try {
      const second = createNotifier({
        db: other.db,
        log: test.app.log,
        messenger,
        secrets: secretBox(loadSecretKey(test.database.dataDir, undefined)),
        webhooks: { ca: cert.cert, allowPrivateTargets: true },
      });
      receiver.state.failFirst = 5;
      const start = Date.now();
      for (let index = 0; index < 5; index++) {
        const notice = { title: `Retry ${index}`, body: 'once' };
        expect((await notifier.notify(await aliceId(), 'system', notice, start)).webhook).toBe('queued');
      }
      const due = start + WEBHOOK_RETRY_DELAYS_MS[0];
      const rounds = await Promise.all([
        notifier.runDueWebhooks(due),
        second.runDueWebhooks(due),
        notifier.runDueWebhooks(due),
        second.runDueWebhooks(due),
      ]);
      expect(rounds.reduce((sum, count) => sum + count, 0)).toBe(5);
      const retried = receiver.received.slice(5).map((post) => (JSON.parse(post.body) as { title: string }).title);
      expect(retried.sort()).toEqual(['Retry 0', 'Retry 1', 'Retry 2', 'Retry 3', 'Retry 4']);
      const rows = await test.database.db.selectFrom('webhook_deliveries').select(['state', 'attempts']).execute();
      expect(rows).toEqual(Array.from({ length: 5 }, () => ({ state: 'sent', attempts: 2 })));
    } finally {
      messenger.close();
      await other.close();
    }
  });

  it('gives up after the last retry, and a certificate from an untrusted CA is a failure', async () => {
    receiver.state.failFirst = 100;
    let now = Date.now();
    await notifier.notify(await aliceId(), 'system', { title: 'Doomed', body: 'x' }, now);
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      now += delay;
      expect(await notifier.runDueWebhooks(now)).toBe(1);
    }
    expect(await notifier.runDueWebhooks(now + 24 * 60 * 60_000)).toBe(0);
    expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    const row = await test.database.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'failed', attempts: WEBHOOK_MAX_ATTEMPTS, last_error: 'HTTP 503' });

    const strict = await startTestApp(target, { background: false, webhooks: { allowPrivateTargets: true } });
    try {
      const bob = await addUser(strict, 'bob');
      const saved = await strict.call('PUT', '/v1/messages/sub', {
        token: bob,
        body: { webhook_url: receiver.url, generate_secret: true, send_test: true },
      });
      expect((saved.body.data as { test: { status: string; error: string } }).test).toMatchObject({ status: 'failed' });
      expect((saved.body.data as { test: { error: string } }).test.error).toMatch(/certificate/i);
    } finally {
      await strict.close();
    }
  });
});
