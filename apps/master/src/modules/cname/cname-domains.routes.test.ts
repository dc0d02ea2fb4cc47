import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DIALECTS)('CNAME domains read and changed by id on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
  });
  afterAll(async () => {
    await test.close();
  });

  const add = async (domain: string, is_default: boolean) =>
    data(await test.call('POST', '/v1/cname-domains', { token: admin, body: { domain, is_default, note: '' } })).id;

  it('reads one, changes its note and which one is the default; only admins', async () => {
    const first = await add('cdn1.example.net', true);
    const second = await add('cdn2.example.net', false);
    expect((await test.call('GET', `/v1/cname-domains/${second}`, { token: admin })).body.data).toEqual({
      id: second,
      domain: 'cdn2.example.net',
      is_default: false,
      note: '',
      dnsapi_id: null,
      zone: '',
    });
    const changed = await test.call('PUT', `/v1/cname-domains/${second}`, {
      token: admin,
      body: { is_default: true, note: 'new edge pool' },
    });
    expect(changed.body.data).toEqual({
      id: second,
      domain: 'cdn2.example.net',
      is_default: true,
      note: 'new edge pool',
      dnsapi_id: null,
      zone: '',
    });
    expect((await test.call('GET', `/v1/cname-domains/${first}`, { token: admin })).body.data).toMatchObject({
      is_default: false,
    });
    const refused = await test.call('PUT', `/v1/cname-domains/${first}`, {
      token: admin,
      body: { domain: 'x.example' },
    });
    expect(refused.body).toMatchObject({ code: 'invalid_param', msg: 'body/domain: is not an accepted field' });
    expect((await test.call('GET', `/v1/cname-domains/${first}`, { token: alice })).status).toBe(403);
    expect((await test.call('PUT', `/v1/cname-domains/${first}`, { token: alice, body: { note: 'x' } })).status).toBe(
      403,
    );
    for (const method of ['GET', 'PUT'] as const) {
      const missing = await test.call(method, '/v1/cname-domains/999999', { token: admin, body: { note: 'x' } });
      expect(missing.body).toEqual({ code: 'not_found', msg: 'CNAME domain 999999 does not exist', data: null });
    }
  });
});
