import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecretKey, secretBox } from '../../secrets.ts';
import { DIALECTS, otherMasterHandle } from '../../test/databases.ts';
import { type FakeCloudflare, startFakeCloudflare } from '../../test/fake-cloudflare.ts';
import { acceptedNode, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import { publishLineGroups } from './publish.ts';

const TOKEN = 'cf-token-publish-order';

describe.each(DIALECTS)('publishing runs one at a time across masters on $dialect (Cloudflare stand-in)', (target) => {
  let cf: FakeCloudflare;
  let test: TestApp;
  beforeAll(async () => {
    cf = await startFakeCloudflare(TOKEN, { 'example.org': 'zone-org' });
    test = await startTestApp(target, { background: false });
    await saveSetting(test.database.db, 'cloudflare_api_url', cf.api);
  });
  afterAll(async () => {
    await test?.close();
    await cf?.close();
  });

  it('writes a later plan only after the earlier one is written, so the last change wins', async () => {
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const call = (method: 'POST' | 'PUT' | 'GET', url: string, body?: object) =>
      test.call(method, url, { token: admin, ...(body && { body }) });
    const api = data(
      await call('POST', '/v1/dnsapis', { name: 'cf', provider: 'cloudflare', credentials: { api_token: TOKEN } }),
    ).id;
    const domain = data(
      await call('POST', '/v1/cname-domains', { domain: 'cdn.example.org', dnsapi_id: api, zone: 'example.org' }),
    ).id;
    const { nodeId } = await acceptedNode(test);
    await call('PUT', `/v1/nodes/${nodeId}`, { ips: ['192.0.2.7'] });
    const lines = data<{ list: { id: number }[] }>(await call('GET', '/v1/lines')).list;
    await call('POST', '/v1/node-groups', {
      name: 'g',
      cname_domain_id: domain,
      host: 'lg1',
      records: [{ line_id: lines[0]?.id, ip: '192.0.2.7' }],
    });
    const secrets = secretBox(loadSecretKey(test.database.dataDir, undefined));
    // Another master: on PostgreSQL a pool of its own on the same schema; SQLite serves one master.
    const other = await otherMasterHandle(test.database, target);
    const before = cf.requests.length;
    try {
      await Promise.all([
        publishLineGroups(test.database.db, secrets, test.app.log),
        publishLineGroups(other.db, secrets, test.app.log),
        publishLineGroups(test.database.db, secrets, test.app.log),
        publishLineGroups(other.db, secrets, test.app.log),
      ]);
    } finally {
      await other.close();
    }
    // Each publishing lists the A records, then the AAAA records: never two A listings in a row.
    const listings = cf.requests
      .slice(before)
      .filter((request) => request.method === 'GET' && request.url.includes('/dns_records?'))
      .map((request) => new URL(request.url, 'http://x').searchParams.get('type'));
    expect(listings).toEqual(['A', 'AAAA', 'A', 'AAAA', 'A', 'AAAA', 'A', 'AAAA']);
    expect(cf.records.map((record) => `${record.name} ${record.type} ${record.content}`)).toEqual([
      'lg1.cdn.example.org A 192.0.2.7',
    ]);
  });
});
