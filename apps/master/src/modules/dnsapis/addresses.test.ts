import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALIDNS_LINES, type FakeAlidns, startFakeAlidns } from '../../test/fake-alidns.ts';
import { type FakeCloudflare, startFakeCloudflare } from '../../test/fake-cloudflare.ts';
import { type FakeDnspod, startFakeDnspod } from '../../test/fake-dnspod.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { alidns } from './alidns.ts';
import { cloudflare } from './cloudflare.ts';
import { dnspod } from './dnspod.ts';

const CF_TOKEN = 'cf-token-0123456789';
const POD = { secret_id: 'AKIDexample0123456789', secret_key: 'secret-key-0123456789' };
const ALI = { access_key_id: 'LTAIexample0123', access_key_secret: 'ali-secret-0123456789' };

describe('line groups’ A/AAAA record sets at the hosted providers (local stand-ins that check each call)', () => {
  let cf: FakeCloudflare;
  let pod: FakeDnspod;
  let ali: FakeAlidns;
  beforeAll(async () => {
    cf = await startFakeCloudflare(CF_TOKEN, { 'example.org': 'zone-org' });
    pod = await startFakeDnspod({ [POD.secret_id]: POD.secret_key }, ['example.cn']);
    ali = await startFakeAlidns({ [ALI.access_key_id]: ALI.access_key_secret }, ['example.com.cn']);
  });
  afterAll(async () => {
    await cf?.close();
    await pod?.close();
    await ali?.close();
  });

  it('Cloudflare: replaces the A and AAAA records of one name, leaves others alone, has only the default line', async () => {
    const provider = cloudflare({ api_token: CF_TOKEN }, cf.api);
    await provider.setCname('example.org', 'www.example.org', 'lg1.cdn.example.org');
    await provider.setAddresses('example.org', 'lg1.cdn.example.org', null, [
      { ip: '192.0.2.1', weight: 1 },
      { ip: '192.0.2.2', weight: 1 },
      { ip: '2001:db8::1', weight: 1 },
    ]);
    await provider.setAddresses('example.org', 'lg1.cdn.example.org', null, [
      { ip: '192.0.2.2', weight: 1 },
      { ip: '192.0.2.3', weight: 1 },
    ]);
    const sets = () => cf.records.map((record) => `${record.name} ${record.type} ${record.content}`).sort();
    expect(sets()).toEqual([
      'lg1.cdn.example.org A 192.0.2.2',
      'lg1.cdn.example.org A 192.0.2.3',
      'www.example.org CNAME lg1.cdn.example.org',
    ]);
    const writes = cf.requests.filter((request) => request.method !== 'GET').length;
    await provider.setAddresses('example.org', 'lg1.cdn.example.org', null, [
      { ip: '192.0.2.3', weight: 1 },
      { ip: '192.0.2.2', weight: 1 },
    ]);
    expect(cf.requests.filter((request) => request.method !== 'GET').length).toBe(writes);
    await expect(provider.setAddresses('example.org', 'lg1.cdn.example.org', 'telecom', [])).rejects.toThrow(
      'Cloudflare has only the default line, not telecom',
    );
    expect(await provider.listLines('example.org')).toEqual([]);
  });

  it('DNSPod: one record set per line, weights sent where they differ, lines listed for the domain grade', async () => {
    const provider = dnspod(POD, pod.url);
    await provider.setAddresses('example.cn', 'lg1.cdn.example.cn', null, [{ ip: '192.0.2.1', weight: 1 }]);
    await provider.setAddresses('example.cn', 'lg1.cdn.example.cn', '电信', [
      { ip: '192.0.2.5', weight: 30 },
      { ip: '192.0.2.6', weight: 70 },
    ]);
    await provider.setAddresses('example.cn', 'lg1.cdn.example.cn', '电信', [
      { ip: '192.0.2.5', weight: 50 },
      { ip: '192.0.2.6', weight: 70 },
    ]);
    const sets = () =>
      pod.records
        .map((record) => `${record.Name} ${record.Line} ${record.Type} ${record.Value} ${record.Weight}`)
        .sort();
    expect(sets()).toEqual([
      'lg1.cdn 电信 A 192.0.2.5 50',
      'lg1.cdn 电信 A 192.0.2.6 70',
      'lg1.cdn 默认 A 192.0.2.1 null',
    ]);
    await provider.setAddresses('example.cn', 'lg1.cdn.example.cn', '电信', []);
    expect(sets()).toEqual(['lg1.cdn 默认 A 192.0.2.1 null']);
    expect(await provider.listLines('example.cn')).toEqual([
      { code: '电信', name: '电信' },
      { code: '联通', name: '联通' },
      { code: '移动', name: '移动' },
      { code: '境外', name: '境外' },
    ]);
  });

  it('AliDNS: records per line, weighted round robin switched on where weights differ, lines listed', async () => {
    const provider = alidns(ALI, ali.url);
    await provider.setAddresses('example.com.cn', 'lg1.cdn.example.com.cn', null, [
      { ip: '192.0.2.1', weight: 1 },
      { ip: '2001:db8::1', weight: 1 },
    ]);
    await provider.setAddresses('example.com.cn', 'lg1.cdn.example.com.cn', 'unicom', [
      { ip: '192.0.2.7', weight: 20 },
      { ip: '192.0.2.8', weight: 80 },
    ]);
    await provider.setAddresses('example.com.cn', 'lg1.cdn.example.com.cn', null, [{ ip: '192.0.2.9', weight: 1 }]);
    const sets = () =>
      ali.records.map((record) => `${record.RR} ${record.Line} ${record.Type} ${record.Value} ${record.Weight}`).sort();
    expect(sets()).toEqual([
      'lg1.cdn default A 192.0.2.9 undefined',
      'lg1.cdn unicom A 192.0.2.7 20',
      'lg1.cdn unicom A 192.0.2.8 80',
    ]);
    expect(await provider.listLines('example.com.cn')).toEqual(
      ALIDNS_LINES.slice(1).map((line) => ({ code: line.LineCode, name: line.LineDisplayName })),
    );
  });

  describe('line sync through POST /v1/lines/sync', () => {
    let test: TestApp;
    beforeAll(async () => {
      test = await startTestApp({ dialect: 'sqlite' }, { background: false });
      await saveSetting(test.database.db, 'dnspod_api_url', pod.url);
    });
    afterAll(async () => {
      await test?.close();
    });

    it('adds the provider’s lines once, with English names where known', async () => {
      const admin = await test.login('admin', ADMIN_PASSWORD);
      const api = data(
        await test.call('POST', '/v1/dnsapis', {
          token: admin,
          body: { name: 'pod', provider: 'dnspod', credentials: POD },
        }),
      ).id;
      const sync = (body: object) => test.call('POST', '/v1/lines/sync', { token: admin, body });
      expect(data(await sync({ dnsapi_id: api }))).toEqual({ added: 4, total: 4 });
      expect(data(await sync({ dnsapi_id: api, zone: 'example.cn' }))).toEqual({ added: 0, total: 4 });
      expect((await sync({ dnsapi_id: api, zone: 'other.cn' })).body).toMatchObject({
        code: 'invalid_param',
        msg: 'zone: other.cn is not a zone of DNS API pod',
      });
      expect((await sync({ dnsapi_id: 999999 })).body).toMatchObject({
        code: 'not_found',
        msg: 'dnsapi_id: DNS API 999999 does not exist',
      });
      const lines = data<{ list: { provider: string; code: string; name_en: string }[] }>(
        await test.call('GET', '/v1/lines', { token: admin }),
      ).list;
      expect(lines.map((line) => `${line.provider}:${line.code}:${line.name_en}`)).toEqual([
        ':default:Default',
        'dnspod:电信:Telecom',
        'dnspod:联通:Unicom',
        'dnspod:移动:Mobile',
        'dnspod:境外:Overseas',
      ]);
    });
  });
});
