import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDnspod, startFakeDnspod } from '../../test/fake-dnspod.ts';
import { acceptedNode, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';

const KEYS = { secret_id: 'AKIDdrift0123456789', secret_key: 'drift-secret-0123456789' };
const FQDN = 'lg1.cdn.example.cn';

interface Drift {
  differences: { kind: string; name: string; line: string; expected: unknown; actual: unknown; fields: string[] }[];
  error: string;
}

describe('the DNS drift check on a provider with lines and weights (DNSPod stand-in)', () => {
  let api: FakeDnspod;
  let test: TestApp;
  let admin: string;
  let groupId: number;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object) =>
    test.call(method, url, { token: admin, ...(body && { body }) });
  const held = () =>
    api.records
      .filter((record) => record.Name === 'lg1.cdn')
      .map((record) => `${record.Line} ${record.Type} ${record.Value} ttl=${record.TTL} w=${record.Weight}`)
      .sort();

  beforeAll(async () => {
    api = await startFakeDnspod({ [KEYS.secret_id]: KEYS.secret_key }, ['example.cn']);
    test = await startTestApp({ dialect: 'sqlite' }, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    await saveSetting(test.database.db, 'dnspod_api_url', api.url);
    const account = data(await call('POST', '/v1/dnsapis', { name: 'pod', provider: 'dnspod', credentials: KEYS })).id;
    const domain = data(
      await call('POST', '/v1/cname-domains', { domain: 'cdn.example.cn', dnsapi_id: account, zone: 'example.cn' }),
    ).id;
    const { nodeId } = await acceptedNode(test);
    await call('PUT', `/v1/nodes/${nodeId}`, { ips: ['192.0.2.1', '192.0.2.2', '192.0.2.3'] });
    const lines = data<{ list: { id: number; code: string }[] }>(await call('GET', '/v1/lines')).list;
    const defaultLine = lines.find((line) => line.code === 'default')?.id;
    const telecom = data(
      await call('POST', '/v1/lines', { provider: 'dnspod', code: '电信', name_zh: '电信', name_en: 'Telecom' }),
    ).id;
    groupId = data(
      await call('POST', '/v1/node-groups', {
        name: 'main',
        cname_domain_id: domain,
        host: 'lg1',
        records: [
          { line_id: defaultLine, ip: '192.0.2.1', weight: 30 },
          { line_id: defaultLine, ip: '192.0.2.2', weight: 70 },
          { line_id: telecom, ip: '192.0.2.3' },
        ],
      }),
    ).id;
  });
  afterAll(async () => {
    await test?.close();
    await api?.close();
  });

  it('compares weights and lines, repairs them and removes the host from lines the group does not publish', async () => {
    expect(held()).toEqual([
      '电信 A 192.0.2.3 ttl=600 w=null',
      '默认 A 192.0.2.1 ttl=600 w=30',
      '默认 A 192.0.2.2 ttl=600 w=70',
    ]);
    expect(data<Drift>(await call('GET', `/v1/node-groups/${groupId}/drift`))).toMatchObject({
      differences: [],
      error: '',
    });
    // Behind the master's back: a weight changed, a TTL raised, a record added on a line the group does not use.
    const [first] = api.records.filter((record) => record.Value === '192.0.2.1');
    if (first) first.Weight = 50;
    const [telecomRecord] = api.records.filter((record) => record.Line === '电信');
    if (telecomRecord) telecomRecord.TTL = 3600;
    api.records.push({
      RecordId: 9999,
      Domain: 'example.cn',
      Name: 'lg1.cdn',
      Type: 'A',
      Value: '198.51.100.9',
      Line: '移动',
      TTL: 600,
      Weight: null,
    });
    const drift = data<Drift>(await call('GET', `/v1/node-groups/${groupId}/drift`));
    expect(drift.differences.map((entry) => `${entry.kind} ${entry.name} ${entry.line} ${entry.fields}`)).toEqual([
      `different ${FQDN}  weight`,
      `different ${FQDN} 电信 ttl`,
      `extra ${FQDN} 移动 `,
    ]);
    expect(drift.differences[0]).toMatchObject({
      expected: { value: '192.0.2.1', ttl: 600, weight: 30 },
      actual: { value: '192.0.2.1', ttl: 600, weight: 50 },
    });
    const repaired = data<Drift>(await call('POST', `/v1/node-groups/${groupId}/drift/repair`));
    expect(repaired).toMatchObject({ differences: [], error: '' });
    expect(held()).toEqual([
      '电信 A 192.0.2.3 ttl=600 w=null',
      '默认 A 192.0.2.1 ttl=600 w=30',
      '默认 A 192.0.2.2 ttl=600 w=70',
    ]);
  });
});
