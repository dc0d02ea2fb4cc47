import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type FakeDnspod, startFakeDnspod } from '../../test/fake-dnspod.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { dnspod } from './dnspod.ts';

const KEYS = { secret_id: 'AKIDexample0123456789', secret_key: 'secret-key-0123456789' };

describe('DNSPod (Tencent Cloud API 3.0) against a local stand-in that checks the TC3 signature', () => {
  let api: FakeDnspod;
  beforeAll(async () => {
    api = await startFakeDnspod({ [KEYS.secret_id]: KEYS.secret_key }, ['example.cn', 'shop.example.com']);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('lists the domains with a signed call, and refuses a wrong key in plain words', async () => {
    expect(await dnspod(KEYS, api.url).listZones()).toEqual(['example.cn', 'shop.example.com']);
    const [request] = api.requests;
    expect(request?.headers).toMatchObject({ 'x-tc-action': 'DescribeDomainList', 'x-tc-version': '2021-03-23' });
    await expect(dnspod({ ...KEYS, secret_key: 'wrong' }, api.url).listZones()).rejects.toThrow(
      'the DNS API refused the API key',
    );
    await expect(dnspod({ ...KEYS, secret_id: 'AKIDunknown' }, api.url).listZones()).rejects.toThrow(
      'the DNS API refused the API key',
    );
  });

  it('creates a CNAME on the default line once and modifies it after; the apex is @', async () => {
    const provider = dnspod(KEYS, api.url);
    await provider.setCname('example.cn', 'www.example.cn', 's1.cdn.example.org');
    await provider.setCname('example.cn', 'www.example.cn', 's2.cdn.example.org');
    await provider.setCname('example.cn', 'example.cn', 's3.cdn.example.org');
    expect(api.records.map((record) => [record.Name, record.Type, record.Value, record.Line])).toEqual([
      ['www', 'CNAME', 's2.cdn.example.org', '默认'],
      ['@', 'CNAME', 's3.cdn.example.org', '默认'],
    ]);
  });

  it('adds TXT values beside others and removes only its own', async () => {
    const provider = dnspod(KEYS, api.url);
    const name = '_acme-challenge.a.shop.example.com';
    await provider.addTxt('shop.example.com', name, ['someone-else']);
    await provider.addTxt('shop.example.com', name, ['token-a', 'someone-else']);
    const txt = () =>
      api.records.filter((record) => record.Type === 'TXT').map((record) => `${record.Name}=${record.Value}`);
    expect(txt()).toEqual(['_acme-challenge.a=someone-else', '_acme-challenge.a=token-a']);
    await provider.removeTxt('shop.example.com', name, ['token-a']);
    expect(txt()).toEqual(['_acme-challenge.a=someone-else']);
    await expect(provider.addTxt('nowhere.cn', '_acme-challenge.nowhere.cn', ['x'])).rejects.toThrow(
      'the DNS API refused the call: the domain does not exist (InvalidParameterValue.DomainNotExists)',
    );
  });

  it('writes the configured TTLs (600 at least), weights where they differ, rewrites changed TTLs, and lists a name on every line', async () => {
    const name = 'lg1.shop.example.com';
    await dnspod(KEYS, api.url, { address_ttl: 60, cname_ttl: 60 }).setAddresses('shop.example.com', name, null, [
      { ip: '192.0.2.1', weight: 1 },
    ]);
    const provider = dnspod(KEYS, api.url, { address_ttl: 900, cname_ttl: 3600 });
    expect(await provider.listRecords('shop.example.com', name)).toEqual([
      { type: 'A', value: '192.0.2.1', line: null, ttl: 600, weight: null },
    ]);
    await provider.setAddresses('shop.example.com', name, null, [{ ip: '192.0.2.1', weight: 1 }]);
    await provider.setAddresses('shop.example.com', name, '电信', [
      { ip: '192.0.2.2', weight: 30 },
      { ip: '192.0.2.3', weight: 70 },
    ]);
    await provider.setCname('shop.example.com', 's9.shop.example.com', name);
    expect(await provider.listRecords('shop.example.com', name)).toEqual([
      { type: 'A', value: '192.0.2.1', line: null, ttl: 900, weight: null },
      { type: 'A', value: '192.0.2.2', line: '电信', ttl: 900, weight: 30 },
      { type: 'A', value: '192.0.2.3', line: '电信', ttl: 900, weight: 70 },
    ]);
    expect(await provider.listRecords('shop.example.com', 's9.shop.example.com')).toEqual([
      { type: 'CNAME', value: name, line: null, ttl: 3600, weight: null },
    ]);
    expect(await provider.ttlAt('shop.example.com', 'address')).toBe(900);
    expect(await provider.listRecords('shop.example.com', 'nothing.shop.example.com')).toEqual([]);
  });

  describe.each(DIALECTS)('as a DNS API on $dialect', (target) => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp(target, { background: false });
      await saveSetting(test.database.db, 'dnspod_api_url', api.url);
    });
    afterAll(async () => {
      await test?.close();
    });

    it('takes a SecretId and SecretKey, checks them with DNSPod and never returns them', async () => {
      const alice = await addUser(test, 'alice');
      const add = (credentials: object) =>
        test.call('POST', '/v1/dnsapis', { token: alice, body: { name: 'pod', provider: 'dnspod', credentials } });
      expect((await add({ secret_id: KEYS.secret_id })).body.msg).toBe(
        'credentials/secret_key: is required for dnspod',
      );
      const created = await add(KEYS);
      expect(created.body.data).toMatchObject({ provider: 'dnspod' });
      expect(JSON.stringify(created.body)).not.toContain(KEYS.secret_key);
      const stored = await test.database.db.selectFrom('dnsapis').select('credentials').executeTakeFirstOrThrow();
      expect(stored.credentials).not.toContain(KEYS.secret_key);
    });
  });
});
