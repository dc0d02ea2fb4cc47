import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSecretKey, secretBox } from '../../secrets.ts';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, latestCode, startTestApp, type TestApp } from '../../test/test-app.ts';
import { findUserByAccount } from '../users/users.repository.ts';
import { createMessenger } from './messenger.ts';
import { createNotifier } from './notifier.ts';

interface Listed {
  list: { id: number; type: string; title: string; read: boolean; account: string }[];
  total: number;
  unread: number;
}

describe.each(DIALECTS)('messages and subscriptions on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterEach(async () => {
    await test.close();
  });

  const idOf = async (account: string) => Number((await findUserByAccount(test.database.db, account))?.id);
  const send = (body: object, token = admin) => test.call('POST', '/v1/messages', { token, body });
  const inbox = async (token: string, query = '') => {
    const result = await test.call('GET', `/v1/messages?page=1&limit=50${query}`, { token });
    expect(result.body.code, result.body.msg).toBe(0);
    return result.body.data as Listed;
  };

  it('lets an admin send to one user, who lists, reads, marks and deletes it; nobody else reaches it', async () => {
    const sent = await send({
      target: 'user',
      user_id: await idOf('alice'),
      title: 'Maintenance',
      body: 'Tonight 22:00',
    });
    expect(sent.body).toMatchObject({ code: 0, data: { recipients: 1 } });
    const mine = await inbox(alice);
    expect(mine).toMatchObject({ total: 1, unread: 1, list: [{ type: 'system', title: 'Maintenance', read: false }] });
    expect((await inbox(bob)).total).toBe(0);
    const id = mine.list[0]?.id;
    for (const method of ['GET', 'DELETE'] as const) {
      expect((await test.call(method, `/v1/messages/${id}`, { token: bob })).body.code).toBe('not_found');
    }
    expect((await test.call('PUT', `/v1/messages/${id}`, { token: bob, body: { read: true } })).body.code).toBe(
      'not_found',
    );
    const read = await test.call('PUT', `/v1/messages/${id}`, { token: alice, body: { read: true } });
    expect(read.body.data).toMatchObject({ read: true });
    expect(await inbox(alice, '&read=false')).toMatchObject({ total: 0, unread: 0 });
    await test.call('PUT', `/v1/messages/${id}`, { token: alice, body: { read: false } });
    expect((await inbox(alice)).unread).toBe(1);
    const gone = await test.call('DELETE', `/v1/messages/${id}`, { token: alice });
    expect(gone.body.code).toBe(0);
    expect((await inbox(alice)).total).toBe(0);
  });

  it('marks a batch read by ids (ignoring others’ ids) or all at once, and filters by type', async () => {
    await send({ target: 'all', title: 'One', body: 'first' });
    await send({ target: 'all', type: 'announcement', title: 'Two', body: 'second' });
    await send({ target: 'all', title: 'Three', body: 'third' });
    const mine = await inbox(alice);
    expect(mine).toMatchObject({ total: 3, unread: 3 });
    expect((await inbox(alice, '&type=announcement')).list.map((m) => m.title)).toEqual(['Two']);
    const bobsId = (await inbox(bob)).list[0]?.id;
    const some = await test.call('POST', '/v1/messages/read', {
      token: alice,
      body: { ids: [mine.list[0]?.id, bobsId] },
    });
    expect(some.body.data).toEqual({ updated: 1, unread: 2 });
    expect((await inbox(bob)).unread).toBe(3);
    const all = await test.call('POST', '/v1/messages/read', { token: alice, body: { all: true } });
    expect(all.body.data).toEqual({ updated: 2, unread: 0 });
    const neither = await test.call('POST', '/v1/messages/read', { token: alice, body: {} });
    expect(neither.body).toMatchObject({
      code: 'invalid_param',
      msg: 'body: give ids (1 to 1000 message ids) or all: true',
    });
  });

  it('keeps sending and everyone’s messages to admins holding admin:sys, and names bad fields', async () => {
    expect((await send({ target: 'all', title: 'x', body: 'y' }, alice)).body.code).toBe('forbidden');
    expect((await test.call('GET', '/v1/messages?scope=all', { token: alice })).body.code).toBe('forbidden');
    expect((await send({ target: 'user', title: 'x', body: 'y' })).body).toMatchObject({
      code: 'invalid_param',
      msg: 'body/user_id: is required when target is user',
    });
    expect((await send({ target: 'user', user_id: 999999, title: 'x', body: 'y' })).body.code).toBe('not_found');
    expect((await send({ target: 'all', title: '   ', body: 'y' })).body.msg).toMatch(/^body\/title: /);
    expect((await send({ target: 'team', title: 'x', body: 'y' })).body.msg).toMatch(
      /^body\/target: must be user, group or all/,
    );
    await send({ target: 'user', user_id: await idOf('bob'), title: 'For Bob', body: 'hi' });
    const everyone = await inbox(admin, `&scope=all&user_id=${await idOf('bob')}`);
    expect(everyone.list).toMatchObject([{ account: 'bob', title: 'For Bob' }]);
    const later = await inbox(
      admin,
      `&scope=all&from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(later.total).toBe(0);
  });

  it('sends to a user group only', async () => {
    const group = await test.call('POST', '/v1/user-groups', { token: admin, body: { name: 'vip', description: '' } });
    const groupId = (group.body.data as { id: number }).id;
    await test.database.db.updateTable('users').set({ group_id: groupId }).where('username', '=', 'alice').execute();
    const sent = await send({ target: 'group', group_id: groupId, title: 'VIP news', body: 'hello' });
    expect(sent.body.data).toEqual({ recipients: 1 });
    expect((await inbox(alice)).total).toBe(1);
    expect((await inbox(bob)).total).toBe(0);
  });

  it('saves channels per type, refuses admin-only types and bad webhook URLs by name, and shows a secret once', async () => {
    const initial = await test.call('GET', '/v1/messages/sub', { token: alice });
    const types = (initial.body.data as { types: { type: string; email: boolean }[] }).types;
    expect(types.map((t) => t.type)).not.toContain('node_failover');
    expect(types.find((t) => t.type === 'security')).toMatchObject({ in_app: true, email: true });
    const saved = await test.call('PUT', '/v1/messages/sub', {
      token: alice,
      body: { types: [{ type: 'system', in_app: false, email: true, sms: false, webhook: false }] },
    });
    expect((saved.body.data as { types: object[] }).types).toContainEqual({
      type: 'system',
      in_app: false,
      email: true,
      sms: false,
      webhook: false,
    });
    await send({ target: 'all', title: 'quiet', body: 'nothing in app for alice' });
    expect((await inbox(alice)).total).toBe(0);
    expect((await inbox(bob)).total).toBe(1);
    const adminOnly = await test.call('PUT', '/v1/messages/sub', {
      token: alice,
      body: { types: [{ type: 'node_failover', in_app: true, email: true, sms: false, webhook: false }] },
    });
    expect(adminOnly.body.msg).toBe('body/types/0/type: node_failover is for administrators only');
    for (const [url, rule] of [
      ['http://hooks.example.com/x', /^body\/webhook_url: /],
      ['https://127.0.0.1/hook', /^body\/webhook_url: must not point at a loopback, private or link-local address$/],
      ['https://10.1.2.3/hook', /^body\/webhook_url: must not point at a loopback, private or link-local address$/],
      ['https://localhost:8443/hook', /^body\/webhook_url: must not point at a loopback/],
      ['https://[::1]/hook', /^body\/webhook_url: must not point at a loopback/],
    ] as const) {
      const refused = await test.call('PUT', '/v1/messages/sub', { token: alice, body: { webhook_url: url } });
      expect(refused.body.msg, url).toMatch(rule);
    }
    const secret = await test.call('PUT', '/v1/messages/sub', {
      token: alice,
      body: { webhook_url: 'https://hooks.example.com/rampart', generate_secret: true },
    });
    expect(secret.body.data).toMatchObject({ webhook_url: 'https://hooks.example.com/rampart', has_secret: true });
    expect((secret.body.data as { webhook_secret: string }).webhook_secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const later = await test.call('GET', '/v1/messages/sub', { token: alice });
    expect(later.body.data).toMatchObject({ has_secret: true });
    expect(later.body.data).not.toHaveProperty('webhook_secret');
    const stored = await test.database.db.selectFrom('message_webhooks').select('secret').executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain('whsec_');
  });

  it('sends by email and SMS through the messenger as subscribed, each in the send log', async () => {
    await test.database.db
      .updateTable('users')
      .set({ email: 'alice@example.com', phone: '+8613800138000' })
      .where('username', '=', 'alice')
      .execute();
    const saved = await test.call('PUT', '/v1/messages/sub', {
      token: alice,
      body: { types: [{ type: 'balance_low', in_app: false, email: true, sms: true, webhook: false }] },
    });
    expect(saved.body.code, saved.body.msg).toBe(0);
    const result = await test.app.inject({
      method: 'GET',
      url: '/v1/messages/sub',
      headers: { 'access-token': alice },
    });
    expect(result.json().data.types).toContainEqual({
      type: 'balance_low',
      in_app: false,
      email: true,
      sms: true,
      webhook: false,
    });
    const texts: { phone: string; text: string }[] = [];
    const { db } = test.database;
    const notifier = createNotifier({
      db,
      log: test.app.log,
      messenger: createMessenger({
        db,
        log: test.app.log,
        smtpFrom: 'test@localhost',
        // The SMS provider interface the master's gateway implements, recording what reaches it.
        sms: { name: 'recording', send: async (phone, text) => void texts.push({ phone, text }) },
      }),
      secrets: secretBox(loadSecretKey(test.database.dataDir, undefined)),
    });
    const outcome = await notifier.notify(await idOf('alice'), 'balance_low', {
      title: 'Balance low',
      body: 'Top up soon',
    });
    expect(outcome).toEqual({ message_id: null, email: 'sent', sms: 'sent', webhook: 'skipped' });
    expect(texts).toEqual([{ phone: '+8613800138000', text: 'Balance low: Top up soon' }]);
    // The mail server saved in /sys/setting got the email.
    expect(test.codeChannels?.smtp.mails.map((mail) => mail.to)).toEqual(['alice@example.com']);
    const log = await test.call('GET', '/v1/log/msg-send?page=1&limit=10', { token: admin });
    expect((log.body.data as { list: { channel: string; target: string; status: string }[] }).list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ channel: 'email', target: 'alice@example.com', status: 'sent' }),
        expect.objectContaining({ channel: 'sms', target: '+8613800138000', status: 'sent' }),
      ]),
    );
    expect((await inbox(alice)).total).toBe(0);
  });

  it('tells a user of a sign-in from a new address and of a password change', async () => {
    const signIn = (ip: string) =>
      test.app.inject({
        method: 'POST',
        url: '/v1/login',
        remoteAddress: ip,
        payload: { account: 'alice', password: 'alice-pass' },
      });
    expect((await signIn('127.0.0.1')).json().code).toBe(0);
    expect((await inbox(alice, '&type=security')).total).toBe(0);
    const fresh = (await signIn('203.0.113.9')).json();
    expect(fresh.code).toBe(0);
    const notices = await inbox(alice, '&type=security');
    expect(notices.list).toMatchObject([{ title: 'New sign-in to your account' }]);
    await signIn('203.0.113.9');
    expect((await inbox(alice, '&type=security')).total).toBe(1);
    // Security notices go by email too by default, through the saved mail server.
    await test.database.db
      .updateTable('users')
      .set({ email: 'alice@example.com', email_key: 'alice@example.com' })
      .where('username', '=', 'alice')
      .execute();
    const changed = await test.call('PUT', '/v1/user', {
      token: fresh.data.access_token,
      body: { old_password: 'alice-pass', password: 'alice-pass-2' },
    });
    expect(changed.body.code, changed.body.msg).toBe(0);
    await expect
      .poll(async () => (await inbox(fresh.data.access_token, '&type=security')).list.map((m) => m.title))
      .toEqual(['Your password was changed', 'New sign-in to your account']);
    await expect
      .poll(async () =>
        (
          await test.database.db
            .selectFrom('message_sends')
            .select('subject')
            .where('target', '=', 'alice@example.com')
            .execute()
        ).map((row) => row.subject),
      )
      .toEqual(['Your password was changed']);

    // A reset by email code changes the password too.
    const code = await test.call('POST', '/v1/email-captcha', {
      body: { email: 'alice@example.com', purpose: 'reset' },
    });
    expect(code.body.code, code.body.msg).toBe(0);
    const reset = await test.call('POST', '/v1/reset-pass', {
      body: {
        reset_by: 'email',
        email: 'alice@example.com',
        captcha: await latestCode(test, 'alice@example.com'),
        password: 'alice-pass-3',
      },
    });
    expect(reset.body.code, reset.body.msg).toBe(0);
    const again = await test.login('alice', 'alice-pass-3');
    await expect
      .poll(
        async () =>
          (await inbox(again, '&type=security')).list.filter((m) => m.title === 'Your password was changed').length,
      )
      .toBe(2);
  });
});
