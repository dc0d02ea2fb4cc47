import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type FakeAlidns, startFakeAlidns } from '../../test/fake-alidns.ts';
import { addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { alidns, percentEncode, rpcSignature } from './alidns.ts';

const KEYS = { access_key_id: 'LTAI5tExample0123', access_key_secret: 'alidns-secret-0123456789' };

describe('the Alibaba Cloud RPC signature', () => {
  it('signs the example of the Alibaba Cloud DNS documentation', () => {
    const params = {
      Format: 'XML',
      AccessKeyId: 'testid',
      Action: 'DescribeDomainRecords',
      SignatureMethod: 'HMAC-SHA1',
      DomainName: 'example.com',
      SignatureNonce: 'f59ed6a9-83fc-473b-9cc6-99c95df3856e',
      SignatureVersion: '1.0',
      Version: '2015-01-09',
      Timestamp: '2016-03-24T16:41:54Z',
    };
    expect(rpcSignature('testsecret', 'GET', params)).toBe('uRpHwaSEt3J+6KQD//svCh/x+pI=');
  });

  it('percent-encodes as RFC 3986: spaces as %20, * and ! encoded, ~ kept', () => {
    expect(percentEncode("a b*c~d!e'(f)+")).toBe('a%20b%2Ac~d%21e%27%28f%29%2B');
    expect(percentEncode('默认')).toBe('%E9%BB%98%E8%AE%A4');
  });
});

describe('AliDNS against a local stand-in that checks signatures, nonces and times', () => {
  let api: FakeAlidns;
  beforeAll(async () => {
    const many = Array.from({ length: 120 }, (_, i) => `zone${String(i).padStart(3, '0')}.example.net`);
    api = await startFakeAlidns({ [KEYS.access_key_id]: KEYS.access_key_secret }, ['example.cn', ...many]);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('lists every zone across pages, and refuses a wrong key in plain words', async () => {
    const zones = await alidns(KEYS, api.url).listZones();
    expect(zones).toHaveLength(121);
    expect(zones[0]).toBe('example.cn');
    await expect(alidns({ ...KEYS, access_key_secret: 'wrong' }, api.url).listZones()).rejects.toThrow(
      'the DNS API refused the API key',
    );
    await expect(alidns({ ...KEYS, access_key_id: 'LTAIunknown' }, api.url).listZones()).rejects.toThrow(
      'the DNS API refused the API key',
    );
  });

  it('creates a CNAME on the default line once and updates it after; the apex is @', async () => {
    const provider = alidns(KEYS, api.url);
    await provider.setCname('example.cn', 'www.example.cn', 's1.cdn.example.org');
    await provider.setCname('example.cn', 'www.example.cn', 's2.cdn.example.org');
    await provider.setCname('example.cn', 'www.example.cn', 's2.cdn.example.org');
    await provider.setCname('example.cn', 'example.cn', 's3.cdn.example.org');
    expect(api.records.map((record) => [record.RR, record.Type, record.Value, record.Line, record.TTL])).toEqual([
      ['www', 'CNAME', 's2.cdn.example.org', 'default', 600],
      ['@', 'CNAME', 's3.cdn.example.org', 'default', 600],
    ]);
  });

  it('adds TXT values beside others and removes only its own; an unknown zone is named', async () => {
    const provider = alidns(KEYS, api.url);
    const name = '_acme-challenge.a.example.cn';
    await provider.addTxt('example.cn', name, ['someone-else']);
    await provider.addTxt('example.cn', name, ['token-a', 'someone-else']);
    const txt = () =>
      api.records.filter((record) => record.Type === 'TXT').map((record) => `${record.RR}=${record.Value}`);
    expect(txt()).toEqual(['_acme-challenge.a=someone-else', '_acme-challenge.a=token-a']);
    await provider.removeTxt('example.cn', name, ['token-a']);
    expect(txt()).toEqual(['_acme-challenge.a=someone-else']);
    await expect(provider.addTxt('nowhere.cn', '_acme-challenge.nowhere.cn', ['x'])).rejects.toThrow(
      'the DNS API answered 400: The specified domain name does not exist. (InvalidDomainName.NoExist)',
    );
  });

  it('writes the configured TTLs raised to the edition’s MinTtl, rewrites changed TTLs, and lists a name on every line', async () => {
    const name = 'lg1.example.cn';
    await alidns(KEYS, api.url, { address_ttl: 60, cname_ttl: 60 }).setAddresses('example.cn', name, null, [
      { ip: '192.0.2.1', weight: 1 },
    ]);
    const provider = alidns(KEYS, api.url, { address_ttl: 1200, cname_ttl: 3600 });
    expect(await provider.listRecords('example.cn', name)).toEqual([
      { type: 'A', value: '192.0.2.1', line: null, ttl: 600, weight: null },
    ]);
    await provider.setAddresses('example.cn', name, null, [{ ip: '192.0.2.1', weight: 1 }]);
    await provider.setAddresses('example.cn', name, 'telecom', [
      { ip: '192.0.2.2', weight: 30 },
      { ip: '192.0.2.3', weight: 70 },
    ]);
    await provider.setCname('example.cn', 's9.example.cn', name);
    expect(await provider.listRecords('example.cn', name)).toEqual([
      { type: 'A', value: '192.0.2.1', line: null, ttl: 1200, weight: null },
      { type: 'A', value: '192.0.2.2', line: 'telecom', ttl: 1200, weight: 30 },
      { type: 'A', value: '192.0.2.3', line: 'telecom', ttl: 1200, weight: 70 },
    ]);
    expect(await provider.listRecords('example.cn', 's9.example.cn')).toEqual([
      { type: 'CNAME', value: name, line: null, ttl: 3600, weight: null },
    ]);
    expect(await provider.listRecords('example.cn', 'nothing.example.cn')).toEqual([]);
  });

  it('publishes with 600 seconds at least when the key may not read DescribeDomainInfo', async () => {
    const limited = await startFakeAlidns({ [KEYS.access_key_id]: KEYS.access_key_secret }, ['example.cn'], null);
    try {
      const provider = alidns(KEYS, limited.url, { address_ttl: 60, cname_ttl: 300 });
      await provider.setAddresses('example.cn', 'lg1.example.cn', null, [{ ip: '192.0.2.1', weight: 1 }]);
      expect(limited.records.map((record) => record.TTL)).toEqual([600]);
    } finally {
      await limited.close();
    }
  });

  it('takes an edition’s smaller MinTtl from DescribeDomainInfo', async () => {
    const paid = await startFakeAlidns({ [KEYS.access_key_id]: KEYS.access_key_secret }, ['example.cn'], 1);
    try {
      const provider = alidns(KEYS, paid.url, { address_ttl: 5, cname_ttl: 300 });
      await provider.setAddresses('example.cn', 'lg1.example.cn', null, [{ ip: '192.0.2.1', weight: 1 }]);
      expect(paid.records.map((record) => record.TTL)).toEqual([5]);
      expect(await provider.ttlAt('example.cn', 'cname')).toBe(300);
    } finally {
      await paid.close();
    }
  });

  describe.each(DIALECTS)('as a DNS API on $dialect', (target) => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp(target, { background: false });
      await saveSetting(test.database.db, 'alidns_api_url', api.url);
    });
    afterAll(async () => {
      await test?.close();
    });

    it('takes an AccessKey ID and secret, checks them with AliDNS and never returns them', async () => {
      const alice = await addUser(test, 'alice');
      const add = (credentials: object) =>
        test.call('POST', '/v1/dnsapis', { token: alice, body: { name: 'ali', provider: 'alidns', credentials } });
      expect((await add({ access_key_id: KEYS.access_key_id })).body.msg).toBe(
        'credentials/access_key_secret: is required for alidns',
      );
      expect((await add({ ...KEYS, access_key_secret: 'wrong' })).body.msg).toContain(
        'the DNS API refused the API key',
      );
      const created = await add(KEYS);
      expect(created.body.data).toMatchObject({ provider: 'alidns' });
      expect(JSON.stringify(created.body)).not.toContain(KEYS.access_key_secret);
      const stored = await test.database.db.selectFrom('dnsapis').select('credentials').executeTakeFirstOrThrow();
      expect(stored.credentials).not.toContain(KEYS.access_key_secret);
    });
  });
});
