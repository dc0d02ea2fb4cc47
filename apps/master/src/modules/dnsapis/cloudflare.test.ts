import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type FakeCloudflare, startFakeCloudflare } from '../../test/fake-cloudflare.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { cloudflare } from './cloudflare.ts';

const TOKEN = 'cf-token-0123456789';

describe('Cloudflare API v4 against a local stand-in that checks requests as Cloudflare does', () => {
  let api: FakeCloudflare;
  beforeAll(async () => {
    api = await startFakeCloudflare(TOKEN, { 'example.com': 'zone-1', 'shop.example.net': 'zone-2' });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('lists the zones page by page with the Bearer token, and refuses a wrong token in plain words', async () => {
    expect(await cloudflare({ api_token: TOKEN }, api.api).listZones()).toEqual(['example.com', 'shop.example.net']);
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', url: '/client/v4/zones?per_page=50&page=1' });
    await expect(cloudflare({ api_token: 'wrong' }, api.api).listZones()).rejects.toThrow(
      'the DNS API refused the API key',
    );
  });

  it('creates a CNAME once and updates it after, in the zone the name belongs to', async () => {
    const provider = cloudflare({ api_token: TOKEN }, api.api);
    await provider.setCname('example.com', 'www.example.com', 's1.cdn.example.org');
    await provider.setCname('example.com', 'www.example.com', 's2.cdn.example.org');
    expect(api.records.filter((record) => record.type === 'CNAME')).toEqual([
      expect.objectContaining({
        zone_id: 'zone-1',
        name: 'www.example.com',
        content: 's2.cdn.example.org',
        proxied: false,
      }),
    ]);
    expect(api.requests.map((request) => request.method)).toContain('PUT');
  });

  it('adds quoted TXT values beside others and removes only its own', async () => {
    const provider = cloudflare({ api_token: TOKEN }, api.api);
    const name = '_acme-challenge.shop.example.net';
    await provider.addTxt('shop.example.net', name, ['someone-else']);
    await provider.addTxt('shop.example.net', name, ['token-a', 'token-b', 'someone-else']);
    const txt = () => api.records.filter((record) => record.type === 'TXT').map((record) => record.content);
    expect(txt()).toEqual(['"someone-else"', '"token-a"', '"token-b"']);
    await provider.removeTxt('shop.example.net', name, ['token-a', 'token-b']);
    expect(txt()).toEqual(['"someone-else"']);
    await expect(provider.addTxt('nowhere.test', '_acme-challenge.nowhere.test', ['x'])).rejects.toThrow(
      'the DNS API has no zone nowhere.test',
    );
  });

  it('writes the configured TTLs (60 at least, 1 = automatic), rewrites a record whose TTL changed, and lists a name', async () => {
    const name = 'lg1.cdn.example.com';
    const records = [
      { ip: '192.0.2.1', weight: 1 },
      { ip: '2001:db8::1', weight: 1 },
    ];
    await cloudflare({ api_token: TOKEN }, api.api, { address_ttl: 30, cname_ttl: 1 }).setAddresses(
      'example.com',
      name,
      null,
      records,
    );
    const provider = cloudflare({ api_token: TOKEN }, api.api, { address_ttl: 120, cname_ttl: 1 });
    expect(await provider.listRecords('example.com', name)).toEqual([
      { type: 'A', value: '192.0.2.1', line: null, ttl: 60, weight: null },
      { type: 'AAAA', value: '2001:db8::1', line: null, ttl: 60, weight: null },
    ]);
    await provider.setAddresses('example.com', name, null, records);
    await provider.setCname('example.com', 's9.cdn.example.com', `${name}.`);
    expect((await provider.listRecords('example.com', name)).map((record) => record.ttl)).toEqual([120, 120]);
    expect(await provider.listRecords('example.com', 's9.cdn.example.com')).toEqual([
      { type: 'CNAME', value: name, line: null, ttl: 1, weight: null },
    ]);
    expect([await provider.ttlAt('example.com', 'address'), await provider.ttlAt('example.com', 'cname')]).toEqual([
      120, 1,
    ]);
    expect(await provider.listRecords('example.com', 'nothing.example.com')).toEqual([]);
  });

  describe.each(DIALECTS)('as a DNS API on $dialect', (target) => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp(target, { background: false });
      await saveSetting(test.database.db, 'cloudflare_api_url', api.api);
    });
    afterAll(async () => {
      await test?.close();
    });

    it('takes only a token, checks it with Cloudflare and never returns it', async () => {
      const alice = await addUser(test, 'alice');
      const add = (credentials: object) =>
        test.call('POST', '/v1/dnsapis', { token: alice, body: { name: 'cf', provider: 'cloudflare', credentials } });
      expect((await add({})).body.msg).toBe('credentials/api_token: is required for cloudflare');
      expect((await add({ api_token: TOKEN, url: 'http://x.test' })).body.msg).toBe(
        'credentials/url: is not a cloudflare credential',
      );
      expect((await add({ api_token: 'wrong' })).body).toMatchObject({
        code: 'conflict',
        msg: 'the DNS API refused the API key',
      });
      const created = await add({ api_token: TOKEN });
      expect(created.body.data).toMatchObject({ name: 'cf', provider: 'cloudflare' });
      expect(JSON.stringify(created.body)).not.toContain(TOKEN);
      const stored = await test.database.db.selectFrom('dnsapis').select('credentials').executeTakeFirstOrThrow();
      expect(stored.credentials).not.toContain(TOKEN);
      const id = (created.body.data as { id: number }).id;
      expect((await test.call('GET', `/v1/domains?dnsapi_id=${id}`, { token: alice })).body.data).toEqual({
        list: [{ zone: 'example.com' }, { zone: 'shop.example.net' }],
        total: 2,
      });
    });
  });
});
