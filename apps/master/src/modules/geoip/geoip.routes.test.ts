import { createHash } from 'node:crypto';
import type { ConfigAnswer, GeoipDatabase } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { writeMmdb } from '../../test/mmdb-writer.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { BUNDLED_PACKAGE } from './geoip.service.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(DIALECTS)('the GeoIP database on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  const upload = (bytes: Buffer, token: string, query = '') =>
    test.app.inject({
      method: 'POST',
      url: `/v1/geoip${query}`,
      headers: { 'access-token': token, 'content-type': 'application/octet-stream' },
      payload: bytes,
    });

  async function nodeCredential(): Promise<string> {
    const token = (await test.call('GET', '/v1/nodes/install-token', { token: admin })).body.data as {
      install_token: string;
    };
    const registered = (
      await test.call('POST', '/agent/v1/register', {
        body: { install_token: token.install_token, hostname: 'edge-1', ips: ['127.0.0.1'], agent_version: '0.1.0' },
      })
    ).body.data as { pending_id: number; poll_secret: string };
    await test.call('POST', '/v1/nodes', {
      token: admin,
      body: { pending_id: registered.pending_id, http_port: 18080 },
    });
    const poll = await test.app.inject({
      method: 'GET',
      url: `/agent/v1/register/${registered.pending_id}`,
      headers: { 'node-secret': registered.poll_secret },
    });
    return (poll.json().data as { credential: string }).credential;
  }

  const snapshotGeoip = async (credential: string) => {
    const answer = await test.app.inject({
      method: 'GET',
      url: '/agent/v1/config?version=0&wait=0',
      headers: { 'node-token': credential },
    });
    return (answer.json().data as ConfigAnswer).snapshot?.geoip;
  };

  it('ships the bundled database to agents by digest, and serves its bytes to a node only', async () => {
    const current = (await test.call('GET', '/v1/geoip', { token: admin })).body.data as GeoipDatabase;
    expect(current).toMatchObject({ source: 'bundled', uploaded_at: 0 });
    expect(current.name).toContain(BUNDLED_PACKAGE);
    expect(current.built_at).toBeGreaterThan(1_600_000_000);
    const credential = await nodeCredential();
    expect(current.country_path).toBe('country_code');
    expect(await snapshotGeoip(credential)).toEqual({
      sha256: current.sha256,
      size: current.size,
      country_path: 'country_code',
    });
    const download = await test.app.inject({
      method: 'GET',
      url: `/agent/v1/geoip/${current.sha256}`,
      headers: { 'node-token': credential },
    });
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(current.sha256);
    const anonymous = await test.app.inject({ method: 'GET', url: `/agent/v1/geoip/${current.sha256}` });
    expect(anonymous.json().code).toBe('login_required');
    const unknown = await test.app.inject({
      method: 'GET',
      url: `/agent/v1/geoip/${'0'.repeat(64)}`,
      headers: { 'node-token': credential },
    });
    expect(unknown.json().code).toBe('not_found');
  });

  it('takes an uploaded .mmdb in place of the bundled one, sends it with the next config, and goes back', async () => {
    const credential = await nodeCredential();
    const file = writeMmdb([{ cidr: '127.0.0.0/8', data: { country: { iso_code: 'JP' } } }], {
      databaseType: 'GeoIP2-Country',
      buildEpoch: 1_760_000_000,
    });
    const answer = await upload(file, admin, '?name=GeoIP2-Country.mmdb');
    expect(answer.json().code).toBe(0);
    const uploaded = answer.json().data as GeoipDatabase;
    expect(uploaded).toMatchObject({
      sha256: sha256(file),
      size: file.length,
      source: 'uploaded',
      name: 'GeoIP2-Country.mmdb',
      database_type: 'GeoIP2-Country',
      built_at: 1_760_000_000,
      country_path: 'country.iso_code',
    });
    expect((await test.call('GET', '/v1/geoip', { token: admin })).body.data).toEqual(uploaded);
    expect(await snapshotGeoip(credential)).toEqual({
      sha256: sha256(file),
      size: file.length,
      country_path: 'country.iso_code',
    });
    const download = await test.app.inject({
      method: 'GET',
      url: `/agent/v1/geoip/${sha256(file)}`,
      headers: { 'node-token': credential },
    });
    expect(Buffer.compare(download.rawPayload, file)).toBe(0);

    const restored = (await test.call('DELETE', '/v1/geoip', { token: admin })).body.data as GeoipDatabase;
    expect(restored.source).toBe('bundled');
    expect(await snapshotGeoip(credential)).toEqual({
      sha256: restored.sha256,
      size: restored.size,
      country_path: 'country_code',
    });
  });

  it('refuses a file that is not a MaxMind DB, naming the body, and keeps the current one', async () => {
    const before = (await test.call('GET', '/v1/geoip', { token: admin })).body.data as GeoipDatabase;
    const text = await upload(Buffer.from('country,code\nCN,1\n'), admin);
    expect(text.json()).toMatchObject({ code: 'invalid_param', params: { field: 'body' } });
    expect(text.json().msg).toContain('MaxMind.com');
    const good = writeMmdb([{ cidr: '10.0.0.0/8', data: { country_code: 'FR' } }]);
    // The marker without a tree behind it.
    const truncated = Buffer.concat([Buffer.alloc(8), good.subarray(good.lastIndexOf(Buffer.from('MaxMind.com')) - 3)]);
    const short = await upload(truncated, admin);
    expect(short.json()).toMatchObject({ code: 'invalid_param', params: { field: 'body' } });
    expect(short.json().msg).toContain('shorter than the search tree');
    const asn = await upload(writeMmdb([{ cidr: '10.0.0.0/8', data: { autonomous_system_number: 64500 } }]), admin);
    expect(asn.json()).toMatchObject({ code: 'invalid_param', params: { field: 'body' } });
    expect(asn.json().msg).toContain('hold no country code');
    const json = await test.call('POST', '/v1/geoip', { token: admin, body: {} });
    expect(json.body).toMatchObject({ code: 'invalid_param' });
    expect((await test.call('GET', '/v1/geoip', { token: admin })).body.data).toEqual(before);
  });

  it('answers only administrators with admin:sys', async () => {
    const alice = await addUser(test, 'alice');
    expect((await test.call('GET', '/v1/geoip', { token: alice })).body.code).toBe('forbidden');
    expect((await upload(writeMmdb([{ cidr: '10.0.0.0/8', data: { country_code: 'FR' } }]), alice)).json().code).toBe(
      'forbidden',
    );
    expect((await test.call('DELETE', '/v1/geoip', { token: alice })).body.code).toBe('forbidden');
  });
});
