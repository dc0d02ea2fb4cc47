import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCert } from '../../test/certs.ts';
import { DIALECTS } from '../../test/databases.ts';
import { createSite, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DIALECTS)('PUT /v1/certs (batch) on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterEach(async () => {
    await test.close();
  });

  const upload = async (token: string, name: string, domain: string) => {
    const cert = makeCert([domain]);
    return data(await test.call('POST', '/v1/certs', { token, body: { name, cert: cert.cert, key: cert.key } })).id;
  };
  const certIds = async () =>
    (await test.database.db.selectFrom('certs').select('id').orderBy('id').execute()).map((row) => row.id);

  it('deletes every listed certificate at once', async () => {
    const ids = [await upload(alice, 'one', 'one.example.com'), await upload(alice, 'two', 'two.example.com')];
    const kept = await upload(alice, 'three', 'three.example.com');
    const result = await test.call('PUT', '/v1/certs', { token: alice, body: { ids, action: 'delete' } });
    expect(result.body).toEqual({ code: 0, msg: 'ok', data: null });
    expect(await certIds()).toEqual([kept]);
  });

  it('deletes none when one is used by a site, and names it', async () => {
    const free = await upload(alice, 'free', 'free.example.com');
    const used = await upload(alice, 'shop', 'shop.example.com');
    await createSite(test, alice, 'shop.example.com', { https_listen: true, cert_id: used });
    const result = await test.call('PUT', '/v1/certs', { token: alice, body: { ids: [free, used], action: 'delete' } });
    expect(result.status).toBe(409);
    expect(result.body).toEqual({
      code: 'conflict',
      msg: `ids: certificate ${used} (shop) is used by 1 site(s); change those sites first`,
      data: null,
    });
    expect(await certIds()).toEqual([free, used]);
  });

  it('answers 404 for another user’s certificate and deletes none; admins reach every user’s', async () => {
    const mine = await upload(alice, 'mine', 'mine.example.com');
    const theirs = await upload(bob, 'theirs', 'theirs.example.com');
    const result = await test.call('PUT', '/v1/certs', {
      token: alice,
      body: { ids: [mine, theirs], action: 'delete' },
    });
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not_found', msg: `ids: certificate ${theirs} does not exist`, data: null });
    expect(await certIds()).toEqual([mine, theirs]);
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const byAdmin = await test.call('PUT', '/v1/certs', {
      token: admin,
      body: { ids: [mine, theirs], action: 'delete' },
    });
    expect(byAdmin.body.code).toBe(0);
    expect(await certIds()).toEqual([]);
  });

  it('refuses an action it does not know', async () => {
    const id = await upload(alice, 'one', 'one.example.com');
    const result = await test.call('PUT', '/v1/certs', { token: alice, body: { ids: [id], action: 'enable' } });
    expect(result.body).toMatchObject({ code: 'invalid_param', msg: 'body/action: must be delete' });
  });
});
