import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PowerDns, startPowerDns } from '../../test/powerdns.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';

const origins = [{ address: '127.0.0.1', port: 8081, weight: 1, backup: false }];

describe('DNS APIs against a real PowerDNS on loopback', () => {
  let pdns: PowerDns;
  let test: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    pdns = await startPowerDns();
    await pdns.createZone('shop.test');
    test = await startTestApp({ dialect: 'sqlite' });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
    const admin = await test.login('admin', ADMIN_PASSWORD);
    await test.call('POST', '/v1/cname-domains', {
      token: admin,
      body: { domain: 'cdn.rampart.test', is_default: true },
    });
  });
  afterAll(async () => {
    await test?.close();
    await pdns?.close();
  });

  const credentials = () => ({ url: pdns.apiUrl, api_key: pdns.apiKey });

  it('refuses a private address unless the operator allows it (no requests into the master’s network)', async () => {
    const result = await test.call('POST', '/v1/dnsapis', {
      token: alice,
      body: { name: 'pdns', provider: 'powerdns', credentials: credentials() },
    });
    expect(result.body).toMatchObject({
      code: 'invalid_param',
      msg: 'credentials/url: 127.0.0.1 is a private or loopback address, which is not allowed',
    });
    // An admin holding admin:sys allows it through the API (/sys/setting, the DNS APIs tab).
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const dns = '/v1/configs/global-0-system-dns';
    expect((await test.call('GET', dns, { token: admin })).body).toMatchObject({
      code: 0,
      data: { dnsapi_allow_private: false },
    });
    expect((await test.call('PUT', dns, { token: alice, body: { dnsapi_allow_private: true } })).body.code).toBe(
      'forbidden',
    );
    const saved = await test.call('PUT', dns, { token: admin, body: { dnsapi_allow_private: true } });
    expect(saved.body.code, saved.body.msg).toBe(0);
    expect((await test.call('GET', dns, { token: admin })).body.data).toEqual({ dnsapi_allow_private: true });
  });

  it('checks the key with the provider before storing, and stores it sealed, never returned', async () => {
    const wrong = await test.call('POST', '/v1/dnsapis', {
      token: alice,
      body: { name: 'pdns', provider: 'powerdns', credentials: { ...credentials(), api_key: 'wrong-key' } },
    });
    expect(wrong.body).toMatchObject({ code: 'conflict', msg: 'the DNS API refused the API key' });
    const created = await test.call('POST', '/v1/dnsapis', {
      token: alice,
      body: { name: 'pdns', provider: 'powerdns', credentials: credentials() },
    });
    expect(created.body.data).toMatchObject({ name: 'pdns', provider: 'powerdns' });
    expect(JSON.stringify(created.body)).not.toContain(pdns.apiKey);
    const stored = await test.database.db.selectFrom('dnsapis').select('credentials').executeTakeFirstOrThrow();
    expect(stored.credentials).not.toContain(pdns.apiKey);
    expect(JSON.stringify((await test.call('GET', '/v1/dnsapis', { token: alice })).body)).not.toContain(pdns.apiKey);
  });

  it('lists the zones and points a site’s domains at its CNAME with one call, which DNS then confirms', async () => {
    const [api] = ((await test.call('GET', '/v1/dnsapis', { token: alice })).body.data as { list: { id: number }[] })
      .list;
    const zones = await test.call('GET', `/v1/domains?dnsapi_id=${api?.id}`, { token: alice });
    // The PowerDNS is shared with other test files, which hold zones of their own.
    const listed = zones.body.data as { list: { zone: string }[]; total: number };
    expect(listed.list).toContainEqual({ zone: 'shop.test' });
    expect(listed.total).toBe(listed.list.length);
    const site = (
      await test.call('POST', '/v1/sites', {
        token: alice,
        body: { domains: ['www.shop.test', 'other.example'], origins },
      })
    ).body.data as { id: number; cname: string };
    const synced = await test.call('POST', '/v1/domains', {
      token: alice,
      body: { dnsapi_id: api?.id, site_id: site.id },
    });
    expect(synced.body.data).toEqual({
      target: site.cname,
      domains: [
        { domain: 'www.shop.test', zone: 'shop.test', ok: true, error: '' },
        { domain: 'other.example', zone: null, ok: false, error: 'no zone of this DNS API holds the domain' },
      ],
    });
    await saveSetting(test.database.db, 'dns_resolver', pdns.dnsAddress);
    const check = await test.call('POST', '/v1/cname-check', { token: alice, body: { site_id: site.id } });
    expect((check.body.data as { domains: { domain: string; points: boolean }[] }).domains[0]).toMatchObject({
      domain: 'www.shop.test',
      points: true,
    });
  });

  it('never lets another user read, use or change a DNS API', async () => {
    const [api] = ((await test.call('GET', '/v1/dnsapis', { token: alice })).body.data as { list: { id: number }[] })
      .list;
    expect((await test.call('GET', '/v1/dnsapis', { token: bob })).body.data).toEqual({ list: [], total: 0 });
    expect((await test.call('GET', `/v1/domains?dnsapi_id=${api?.id}`, { token: bob })).status).toBe(404);
    expect((await test.call('PUT', `/v1/dnsapis/${api?.id}`, { token: bob, body: { name: 'mine' } })).status).toBe(404);
    expect((await test.call('DELETE', `/v1/dnsapis/${api?.id}`, { token: bob })).status).toBe(404);
  });
});
