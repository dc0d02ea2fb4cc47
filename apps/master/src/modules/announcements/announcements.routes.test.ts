import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { BROADCAST_BATCH, MESSAGE_COUNT_CAP } from '../messages/inbox.repository.ts';

const hour = 60 * 60 * 1000;
const body = (startsIn: number, endsIn: number) => ({
  title_zh: '系统维护',
  text_zh: '今晚 22:00 维护',
  title_en: 'Maintenance',
  text_en: 'Tonight at 22:00',
  starts_at: new Date(Date.now() + startsIn).toISOString(),
  ends_at: new Date(Date.now() + endsIn).toISOString(),
});

describe.each(DIALECTS)('announcements on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  it('publishes to the login page while active and as a message to every user; only admins write them', async () => {
    const alice = await addUser(test, 'alice');
    expect((await test.call('POST', '/v1/announcements', { token: alice, body: body(0, hour) })).body.code).toBe(
      'forbidden',
    );
    expect((await test.call('GET', '/v1/announcements', { token: alice })).body.code).toBe('forbidden');
    const made = await test.call('POST', '/v1/announcements', { token: admin, body: body(-1000, hour) });
    expect(made.body).toMatchObject({ code: 0, data: { active: true, recipients: 2, title_en: 'Maintenance' } });
    const later = await test.call('POST', '/v1/announcements', { token: admin, body: body(hour, 2 * hour) });
    expect(later.body.data).toMatchObject({ active: false });
    const shown = await test.call('GET', '/v1/common/announcements');
    expect(shown.body).toMatchObject({ code: 0, data: [{ title_zh: '系统维护', text_en: 'Tonight at 22:00' }] });
    expect(shown.body.data).toHaveLength(1);
    const inbox = await test.call('GET', '/v1/messages?type=announcement', { token: alice });
    expect(inbox.body.data).toMatchObject({ total: 2, list: [{ title: '系统维护 / Maintenance' }, {}] });

    const id = (made.body.data as { id: number }).id;
    const ended = await test.call('PUT', `/v1/announcements/${id}`, { token: admin, body: body(-2 * hour, -hour) });
    expect(ended.body.data).toMatchObject({ active: false });
    expect((await test.call('GET', '/v1/common/announcements')).body.data).toEqual([]);
    expect((await test.call('GET', '/v1/announcements?active=true', { token: admin })).body.data).toMatchObject({
      total: 0,
    });
    expect((await test.call('DELETE', `/v1/announcements/${id}`, { token: admin })).body.code).toBe(0);
    expect((await test.call('GET', `/v1/announcements/${id}`, { token: admin })).body.code).toBe('not_found');
  });

  it('names the field and rule of a bad announcement', async () => {
    const backwards = await test.call('POST', '/v1/announcements', { token: admin, body: body(hour, 0) });
    expect(backwards.body).toMatchObject({ code: 'invalid_param', msg: 'body/ends_at: must be after starts_at' });
    const tag = await test.call('POST', '/v1/announcements', {
      token: admin,
      body: { ...body(0, hour), title_en: '<b>' },
    });
    expect(tag.body.msg).toMatch(/^body\/title_en: /);
    const missing = await test.call('POST', '/v1/announcements', { token: admin, body: { title_zh: 'x' } });
    expect(missing.body.code).toBe('invalid_param');
  });

  it('reaches more users than one insert batch holds, each once', async () => {
    const users = BROADCAST_BATCH + 7;
    const now = Date.now();
    const rows = Array.from({ length: users }, (_, i) => ({
      username: `bulk${i}`,
      username_key: `bulk${i}`,
      name: '',
      email: '',
      email_key: null,
      phone: '',
      phone_key: null,
      qq: '',
      password_hash: 'x',
      type: 2,
      access: '[]',
      group_id: null,
      balance: 0,
      status: 'enabled',
      created_at: now,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 1000) {
      await test.database.db
        .insertInto('users')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
    const made = await test.call('POST', '/v1/announcements', { token: admin, body: body(0, hour) });
    expect((made.body.data as { recipients: number }).recipients).toBe(users + 1);
    const counted = await test.database.db
      .selectFrom('messages')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('user_id').distinct().as('people')])
      .executeTakeFirstOrThrow();
    expect({ n: Number(counted.n), people: Number(counted.people) }).toEqual({ n: users + 1, people: users + 1 });

    // A second one passes 10,000 messages: the admin's query of everyone's stops counting there.
    await test.call('POST', '/v1/announcements', { token: admin, body: body(0, hour) });
    const everyone = await test.call('GET', '/v1/messages?scope=all&limit=5', { token: admin });
    expect(everyone.body.data).toMatchObject({ total: MESSAGE_COUNT_CAP, total_capped: true });
    const one = await test.call('GET', '/v1/messages?scope=all&limit=5&user_id=1', { token: admin });
    expect(one.body.data).toMatchObject({ total: 2 });
    expect(one.body.data).not.toHaveProperty('total_capped');
  });
});
