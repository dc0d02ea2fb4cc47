import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Inbox {
  list: { type: string; title: string; body: string }[];
  total: number;
}

describe.each(DIALECTS)('certificate expiry notices on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  const userId = async (account: string) =>
    (await test.database.db.selectFrom('users').select('id').where('username', '=', account).executeTakeFirstOrThrow())
      .id;

  /** A certificate expiring `days` from now (negative: expired), uploaded or issued by ACME. */
  const addCert = async (owner: number, name: string, days: number, source: 'upload' | 'acme' = 'upload') => {
    const now = Date.now();
    const row = await test.database.db
      .insertInto('certs')
      .values({
        user_id: owner,
        name,
        cert_pem: 'pem',
        key_pem: 'key',
        names: JSON.stringify([`${name}.example.com`]),
        issuer: 'Test CA',
        not_before: now - 60 * DAY_MS,
        not_after: Math.round(now + days * DAY_MS),
        created_at: now,
        updated_at: now,
        source,
        challenge: null,
        dnsapi_id: null,
        task_id: null,
        renew_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  const runNotices = async () => {
    const run = await test.call('POST', '/v1/tasks/scheduled/expiry-notices/run', { token: admin });
    expect(run.body.code, run.body.msg).toBe(0);
    await expect
      .poll(async () => {
        const list = await test.call('GET', '/v1/tasks/scheduled', { token: admin });
        const task = (
          list.body.data as { list: { name: string; running: boolean; last_result: string | null }[] }
        ).list.find((entry) => entry.name === 'expiry-notices');
        return task && !task.running ? task.last_result : 'running';
      })
      .toBe('ok');
  };

  const titles = async (token: string) => {
    const inbox = await test.call('GET', '/v1/messages?page=1&limit=50&type=cert_expiry', { token });
    expect(inbox.body.code, inbox.body.msg).toBe(0);
    return (inbox.body.data as Inbox).list.map((message) => message.title).sort();
  };

  it('tells owners 30, 7 and 1 day before and once expired, each stage once, and starts afresh after a renewal', async () => {
    const alice = await addUser(test, 'alice');
    const bob = await addUser(test, 'bob');
    const aliceId = await userId('alice');
    const bobId = await userId('bob');
    await addCert(aliceId, 'far', 45);
    await addCert(aliceId, 'month', 20);
    await addCert(aliceId, 'week', 5);
    const renewed = await addCert(aliceId, 'tomorrow', 0.5);
    await addCert(bobId, 'gone', -3);
    await addCert(bobId, 'long-gone', -40);
    // ACME certificates renew themselves 30 days before: only a late renewal is news.
    await addCert(bobId, 'acme-month', 20, 'acme');
    await addCert(bobId, 'acme-week', 5, 'acme');

    await runNotices();
    expect(await titles(alice)).toEqual([
      'Certificate "month" expires in 30 days',
      'Certificate "tomorrow" expires in 1 day',
      'Certificate "week" expires in 7 days',
    ]);
    expect(await titles(bob)).toEqual(['Certificate "acme-week" expires in 7 days', 'Certificate "gone" has expired']);
    const inbox = await test.call('GET', '/v1/messages?page=1&limit=50&type=cert_expiry', { token: alice });
    expect((inbox.body.data as Inbox).list.find((message) => message.title.includes('"week"'))?.body).toContain(
      'week.example.com',
    );

    // A second run finds nothing new.
    await runNotices();
    expect(await titles(alice)).toHaveLength(3);
    expect(await titles(bob)).toHaveLength(2);

    // Time passes for "month" (now 5 days left): the 7-day stage is told; a renewal of "tomorrow" to
    // a new expiry 20 days away is told at the 30-day stage of its new expiry.
    await test.database.db
      .updateTable('certs')
      .set({ not_after: Date.now() + 5 * DAY_MS })
      .where('name', '=', 'month')
      .execute();
    await test.database.db
      .updateTable('certs')
      .set({ not_after: Date.now() + 20 * DAY_MS })
      .where('id', '=', renewed)
      .execute();
    await runNotices();
    expect(await titles(alice)).toEqual([
      'Certificate "month" expires in 30 days',
      'Certificate "month" expires in 7 days',
      'Certificate "tomorrow" expires in 1 day',
      'Certificate "tomorrow" expires in 30 days',
      'Certificate "week" expires in 7 days',
    ]);
  });

  it('follows the owner’s subscription: no in-app message when they turned it off', async () => {
    const alice = await addUser(test, 'alice');
    const off = await test.call('PUT', '/v1/messages/sub', {
      token: alice,
      body: { types: [{ type: 'cert_expiry', in_app: false, email: false, sms: false, webhook: false }] },
    });
    expect(off.body.code, off.body.msg).toBe(0);
    await addCert(await userId('alice'), 'week', 5);
    await runNotices();
    expect(await titles(alice)).toEqual([]);
    // Told once all the same: turning it back on does not replay the stage.
    const rows = await test.database.db.selectFrom('expiry_notices').selectAll().execute();
    expect(rows.map((row) => [row.kind, Number(row.days)])).toEqual([['cert', 7]]);
  });
});
