import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const PERSON = { type: 'personal', name: '张三', id_number: '11010519491231002x' };
const COMPANY = { type: 'company', name: 'Example Co., Ltd.', id_number: '91350100M000100Y43' };

describe.each(DIALECTS)('certification on $dialect', (target) => {
  let test: TestApp;
  beforeEach(async () => {
    test = await startTestApp(target);
  });
  afterEach(async () => {
    await test.close();
  });

  const certified = async (username: string) =>
    (
      await test.database.db
        .selectFrom('users')
        .select('certified')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).certified;

  it('takes a personal request, shows it pending with the number masked, and allows one at a time', async () => {
    const token = await addUser(test, 'alice');
    const sent = await test.call('POST', '/v1/user/certify', { token, body: PERSON });
    expect(sent.body).toMatchObject({
      code: 0,
      data: { type: 'personal', name: '张三', id_number: '1101**********002X', state: 'pending', reason: '' },
    });
    const again = await test.call('POST', '/v1/user/certify', { token, body: COMPANY });
    expect(again.body.code).toBe('conflict');
    const mine = await test.call('GET', '/v1/user/certify', { token });
    expect(mine.body.data).toMatchObject({ total: 1, list: [{ state: 'pending', account: 'alice' }] });
  });

  it('names the field and the rule of a bad number, for a person and for a company', async () => {
    const token = await addUser(test, 'alice');
    const badCheck = await test.call('POST', '/v1/user/certify', {
      token,
      body: { ...PERSON, id_number: '110105194912310021' },
    });
    expect(badCheck.body).toMatchObject({
      code: 'invalid_param',
      msg: 'body/id_number: has a wrong check character (a resident ID number)',
    });
    const badCompany = await test.call('POST', '/v1/user/certify', {
      token,
      body: { ...COMPANY, id_number: '91350100M000100Y44' },
    });
    expect(badCompany.body.msg).toBe('body/id_number: has a wrong check character (a unified social credit code)');
    const short = await test.call('POST', '/v1/user/certify', { token, body: { ...PERSON, id_number: '123' } });
    expect(short.body.msg).toMatch(/^body\/id_number: must be 18 letters or digits/);
    const badType = await test.call('POST', '/v1/user/certify', { token, body: { ...PERSON, type: 'robot' } });
    expect(badType.body.msg).toMatch(/^body\/type: must be personal or company/);
    const badName = await test.call('POST', '/v1/user/certify', { token, body: { ...PERSON, name: '<b>x</b>' } });
    expect(badName.body.msg).toMatch(/^body\/name: /);
  });

  it('is reviewed by an admin: a rejection needs a reason, an approval certifies the user', async () => {
    const token = await addUser(test, 'alice');
    const first = await test.call('POST', '/v1/user/certify', { token, body: COMPANY });
    const { id } = first.body.data as { id: number };
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const queue = await test.call('GET', '/v1/user/certify?state=pending', { token: admin });
    expect(queue.body.data).toMatchObject({ total: 1, list: [{ id, id_number: '91350100M000100Y43' }] });
    const noReason = await test.call('PUT', `/v1/user/certify/${id}`, { token: admin, body: { state: 'rejected' } });
    expect(noReason.body).toMatchObject({ code: 'invalid_param', msg: 'body/reason: is required to reject: say why' });
    const rejected = await test.call('PUT', `/v1/user/certify/${id}`, {
      token: admin,
      body: { state: 'rejected', reason: 'The name does not match the licence' },
    });
    expect(rejected.body.data).toMatchObject({ state: 'rejected', reason: 'The name does not match the licence' });
    expect(Number(await certified('alice'))).toBe(0);
    const twice = await test.call('PUT', `/v1/user/certify/${id}`, { token: admin, body: { state: 'approved' } });
    expect(twice.body).toMatchObject({ code: 'conflict', msg: 'this request was rejected already' });

    const second = await test.call('POST', '/v1/user/certify', { token, body: PERSON });
    const secondId = (second.body.data as { id: number }).id;
    const approved = await test.call('PUT', `/v1/user/certify/${secondId}`, {
      token: admin,
      body: { state: 'approved' },
    });
    expect(approved.body.data).toMatchObject({ state: 'approved', reviewer_id: expect.any(Number) });
    expect(Number(await certified('alice'))).toBe(1);
    const mine = await test.call('GET', '/v1/user/certify', { token });
    expect(mine.body.data).toMatchObject({ total: 2, list: [{ state: 'approved' }, { state: 'rejected' }] });
    expect((await test.call('POST', '/v1/user/certify', { token, body: PERSON })).body.msg).toBe(
      'you are certified already',
    );
    const { user_id } = first.body.data as { user_id: number };
    const byUser = await test.call('GET', `/v1/user/certify?user_id=${user_id}`, { token: admin });
    expect(byUser.body.data).toMatchObject({ total: 2 });
  });

  it("keeps users to their own: no one else's list, no review, no admin filters", async () => {
    const alice = await addUser(test, 'alice');
    const sent = await test.call('POST', '/v1/user/certify', { token: alice, body: PERSON });
    const { id, user_id } = sent.body.data as { id: number; user_id: number };
    const bob = await addUser(test, 'bob');
    expect((await test.call('GET', '/v1/user/certify', { token: bob })).body.data).toEqual({ list: [], total: 0 });
    const peek = await test.call('GET', `/v1/user/certify?user_id=${user_id}`, { token: bob });
    expect(peek.body.code).toBe('forbidden');
    const review = await test.call('PUT', `/v1/user/certify/${id}`, { token: bob, body: { state: 'approved' } });
    expect(review.body.code).toBe('forbidden');
    const self = await test.call('PUT', `/v1/user/certify/${id}`, { token: alice, body: { state: 'approved' } });
    expect(self.body.code).toBe('forbidden');
    expect(Number(await certified('alice'))).toBe(0);
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const missing = await test.call('PUT', '/v1/user/certify/999999', { token: admin, body: { state: 'approved' } });
    expect(missing.body.code).toBe('not_found');
    const badState = await test.call('PUT', `/v1/user/certify/${id}`, { token: admin, body: { state: 'pending' } });
    expect(badState.body.msg).toMatch(/^body\/state: must be approved or rejected/);
  });
});
