import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCert } from '../../test/certs.ts';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, HOSTILE_VALUES, startTestApp, type TestApp } from '../../test/test-app.ts';
import { currentConfigVersion } from '../config/config-version.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };
const body = (domain: string) => ({ domains: [domain], origins: [origin] });

describe.each(DIALECTS)('sites on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
  });
  afterEach(async () => {
    await test.close();
  });

  it('creates a site with defaults and bumps the config version', async () => {
    const before = await currentConfigVersion(test.database.db);
    const result = await test.call('POST', '/v1/sites', { token: alice, body: body('www.example.com') });
    expect(result.body).toMatchObject({
      code: 0,
      data: {
        domains: ['www.example.com'],
        balance: 'round_robin',
        http_listen: true,
        https_listen: false,
        gzip: true,
        enabled: true,
        name: 'www.example.com',
      },
    });
    expect(await currentConfigVersion(test.database.db)).toBe(before + 1);
  });

  it('normalizes typed domains: case, trailing dot and Unicode (IDNA)', async () => {
    const result = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { ...body('WWW.Example.COM.'), domains: ['WWW.Example.COM.', '例子.中国', '*.Wild.example.com'] },
    });
    expect((result.body.data as { domains: string[] }).domains).toEqual([
      'www.example.com',
      'xn--fsqu00a.xn--fiqs8s',
      '*.wild.example.com',
    ]);
  });

  it('refuses every hostile value in every field that reaches nginx, and stores nothing', async () => {
    const fields: ((value: string) => Record<string, unknown>)[] = [
      (v) => ({ ...body('a.example.com'), domains: [`a${v}.example.com`] }),
      (v) => ({ ...body('a.example.com'), origins: [{ ...origin, address: `10.0.0.1${v}` }] }),
      (v) => ({ ...body('a.example.com'), origin_host: `origin${v}` }),
      (v) => ({ ...body('a.example.com'), request_headers: [{ name: `X-A${v}`, value: 'ok' }] }),
      (v) => ({ ...body('a.example.com'), request_headers: [{ name: 'X-A', value: `ok${v}` }] }),
      (v) => ({ ...body('a.example.com'), response_headers: [{ name: 'X-B', value: `ok${v}` }] }),
      (v) => ({
        ...body('a.example.com'),
        cache_rules: [{ match: 'prefix', value: `/static${v}`, ttl: 60, ignore_query: false, honor_origin: false }],
      }),
      (v) => ({
        ...body('a.example.com'),
        cache_rules: [{ match: 'extension', value: `jpg${v}`, ttl: 60, ignore_query: false, honor_origin: false }],
      }),
      (v) => ({ ...body('a.example.com'), name: `site${v}` }),
    ];
    for (const field of fields) {
      for (const value of HOSTILE_VALUES) {
        const result = await test.call('POST', '/v1/sites', { token: alice, body: field(value) });
        expect(result.body.code, JSON.stringify(field(value))).toBe('invalid_param');
      }
    }
    expect(await test.database.db.selectFrom('sites').selectAll().execute()).toEqual([]);
  });

  it('names the field and the rule when a value is refused', async () => {
    const result = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { ...body('a.example.com'), origin_host: 'x;y' },
    });
    expect(result.body).toMatchObject({
      code: 'invalid_param',
      msg: 'body/origin_host: must be empty (send the visitor Host) or a host name such as origin.example.com',
    });
    const rules = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { ...body('a.example.com'), https_listen: true },
    });
    expect(rules.body).toMatchObject({ code: 'invalid_param', msg: 'cert_id: HTTPS needs a certificate' });
    const ipHash = await test.call('POST', '/v1/sites', {
      token: alice,
      body: {
        ...body('a.example.com'),
        balance: 'ip_hash',
        origins: [origin, { ...origin, port: 8082, backup: true }],
      },
    });
    expect(ipHash.body.msg).toBe('origins: backup origins cannot be combined with ip_hash balancing');
    const ipv6 = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { ...body('a.example.com'), origins: [{ ...origin, address: '1:2' }] },
    });
    expect(ipv6.body.msg).toBe('origins/0/address: 1:2 is not a valid IPv6 address');
    const te = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { ...body('a.example.com'), request_headers: [{ name: 'TE', value: 'trailers' }] },
    });
    expect(te.body.msg).toBe('request_headers/0/name: TE is set by the proxy and cannot be changed here');
  });

  it('keeps a domain unique across all users', async () => {
    await test.call('POST', '/v1/sites', { token: alice, body: body('shop.example.com') });
    const taken = await test.call('POST', '/v1/sites', { token: bob, body: body('shop.example.com') });
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('domains: shop.example.com already belongs to another site');
  });

  it('never shows, edits or deletes another user’s site', async () => {
    const created = await test.call('POST', '/v1/sites', { token: alice, body: body('mine.example.com') });
    const id = (created.body.data as { id: number }).id;
    expect((await test.call('GET', `/v1/sites/${id}`, { token: bob })).status).toBe(404);
    expect((await test.call('PUT', `/v1/sites/${id}`, { token: bob, body: { enabled: false } })).status).toBe(404);
    expect((await test.call('DELETE', `/v1/sites/${id}`, { token: bob })).status).toBe(404);
    expect((await test.call('PUT', '/v1/sites', { token: bob, body: { ids: [id], action: 'delete' } })).status).toBe(
      404,
    );
    expect((await test.call('GET', '/v1/sites', { token: bob })).body.data).toEqual({ list: [], total: 0 });
    expect((await test.call('GET', `/v1/sites/${id}`, { token: alice })).body.code).toBe(0);
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await test.call('GET', `/v1/sites/${id}`, { token: admin })).body.code).toBe(0);
  });

  it('pages, filters and sorts the list', async () => {
    for (const name of ['c', 'a', 'b'])
      await test.call('POST', '/v1/sites', { token: alice, body: body(`${name}.example.com`) });
    const sorted = await test.call('GET', '/v1/sites?sort=domain&limit=2&page=1', { token: alice });
    expect(sorted.body.data).toMatchObject({
      total: 3,
      list: [{ domains: ['a.example.com'] }, { domains: ['b.example.com'] }],
    });
    const search = await test.call('GET', '/v1/sites?domain=b.exa', { token: alice });
    expect(search.body.data).toMatchObject({ total: 1, list: [{ domains: ['b.example.com'] }] });
  });

  it('enables, disables, moves and deletes in one batch call, all or nothing', async () => {
    const ids: number[] = [];
    for (const name of ['x', 'y']) {
      ids.push(
        (
          (await test.call('POST', '/v1/sites', { token: alice, body: body(`${name}.example.com`) })).body.data as {
            id: number;
          }
        ).id,
      );
    }
    const group = await test.call('POST', '/v1/site-groups', { token: alice, body: { name: 'shops' } });
    const groupId = (group.body.data as { id: number }).id;
    for (const [token, groupRef] of [
      [bob, groupId],
      [alice, 999_999],
    ] as const) {
      const foreign = await test.call('POST', '/v1/sites', {
        token,
        body: { ...body('grouped.example.com'), group_id: groupRef },
      });
      expect([foreign.status, foreign.body.msg]).toEqual([404, `group_id: site group ${groupRef} does not exist`]);
    }
    expect((await test.call('PUT', '/v1/sites', { token: alice, body: { ids, action: 'disable' } })).body.code).toBe(0);
    expect((await test.call('GET', '/v1/sites?enabled=false', { token: alice })).body.data).toMatchObject({ total: 2 });
    expect(
      (await test.call('PUT', '/v1/sites', { token: alice, body: { ids, action: 'move', group_id: groupId } })).body
        .code,
    ).toBe(0);
    expect((await test.call('GET', `/v1/sites?group_id=${groupId}`, { token: alice })).body.data).toMatchObject({
      total: 2,
    });
    const partial = await test.call('PUT', '/v1/sites', {
      token: alice,
      body: { ids: [...ids, 999999], action: 'delete' },
    });
    expect(partial.body.code).toBe('not_found');
    expect((await test.call('GET', '/v1/sites', { token: alice })).body.data).toMatchObject({ total: 2 });
    expect((await test.call('PUT', '/v1/sites', { token: alice, body: { ids, action: 'delete' } })).body.code).toBe(0);
    expect((await test.call('GET', '/v1/sites', { token: alice })).body.data).toMatchObject({ total: 0 });
  });

  it('serves HTTPS only with the owner’s certificate that covers the domains', async () => {
    const cert = makeCert(['secure.example.com']);
    const uploaded = await test.call('POST', '/v1/certs', { token: alice, body: cert });
    expect(uploaded.body.data).not.toHaveProperty('key');
    const certId = (uploaded.body.data as { id: number }).id;
    const https = { ...body('secure.example.com'), https_listen: true, cert_id: certId, force_https: true };
    const othersCert = await test.call('POST', '/v1/sites', {
      token: bob,
      body: { ...https, domains: ['bob.example.com'] },
    });
    expect([othersCert.status, othersCert.body.code, othersCert.body.msg]).toEqual([
      404,
      'not_found',
      `cert_id: certificate ${certId} does not exist`,
    ]);
    const uncovered = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { ...https, domains: ['other.example.com'] },
    });
    expect(uncovered.body.msg).toBe('cert_id: the certificate does not cover other.example.com');
    expect((await test.call('POST', '/v1/sites', { token: alice, body: https })).body.code).toBe(0);
    expect((await test.call('GET', `/v1/sites?cert_id=${certId}&limit=1`, { token: alice })).body.data).toMatchObject({
      total: 1,
    });
    const inUse = await test.call('DELETE', `/v1/certs/${certId}`, { token: alice });
    expect(inUse.body).toMatchObject({
      code: 'conflict',
      msg: 'the certificate is used by 1 site(s); change them first',
    });
    expect((await test.call('GET', `/v1/certs/${certId}`, { token: bob })).status).toBe(404);
  });
});
