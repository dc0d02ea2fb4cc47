import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCert } from '../../test/certs.ts';
import { DIALECTS } from '../../test/databases.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const origins = [{ address: '127.0.0.1', port: 8081, weight: 1, backup: false }];

describe.each(DIALECTS)('user configs and certificate download on $dialect', (target) => {
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

  it('applies the owner’s defaults to new sites, under what the call sends', async () => {
    expect((await test.call('GET', '/v1/user-configs', { token: alice })).body.data).toEqual({ site_defaults: {} });
    const rule = { match: 'extension', value: 'css', ttl: 600, ignore_query: true, honor_origin: false };
    const saved = await test.call('PUT', '/v1/user-configs', {
      token: alice,
      body: { site_defaults: { origin_protocol: 'https', gzip: false, cache_rules: [rule] } },
    });
    expect(saved.body.code).toBe(0);
    const site = await test.call('POST', '/v1/sites', {
      token: alice,
      body: { domains: ['a.example.com'], origins, gzip: true },
    });
    expect(site.body.data).toMatchObject({ origin_protocol: 'https', gzip: true, cache_rules: [rule] });
    const other = await test.call('POST', '/v1/sites', { token: bob, body: { domains: ['b.example.com'], origins } });
    expect(other.body.data).toMatchObject({ origin_protocol: 'http', gzip: true, cache_rules: [] });
  });

  it('checks defaults with the site rules and refuses what is not a default', async () => {
    const reserved = await test.call('PUT', '/v1/user-configs', {
      token: alice,
      body: { site_defaults: { request_headers: [{ name: 'Host', value: 'x' }] } },
    });
    expect(reserved.body.msg).toBe('request_headers/0/name: Host is set by the proxy and cannot be changed here');
    const https = await test.call('PUT', '/v1/user-configs', {
      token: alice,
      body: { site_defaults: { https_listen: true } },
    });
    expect(https.body).toMatchObject({
      code: 'invalid_param',
      msg: 'body/site_defaults/https_listen: is not an accepted field',
    });
  });

  it('downloads a certificate’s PEM for its owner only, never the key', async () => {
    const cert = makeCert(['dl.example.com']);
    const id = (
      (await test.call('POST', '/v1/certs', { token: alice, body: { ...cert, name: 'dl cert' } })).body.data as {
        id: number;
      }
    ).id;
    const download = await test.app.inject({
      method: 'GET',
      url: `/v1/certs/${id}/pem`,
      headers: { 'access-token': alice },
    });
    expect(download.headers['content-disposition']).toBe('attachment; filename="dl_cert.pem"');
    expect(download.body).toContain('-----BEGIN CERTIFICATE-----');
    expect(download.body).not.toContain('PRIVATE KEY');
    const foreign = await test.app.inject({
      method: 'GET',
      url: `/v1/certs/${id}/pem`,
      headers: { 'access-token': bob },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
