import type { AccessLogLine, LogBatchBody } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';

const line = (i: number): AccessLogLine => ({
  time: 1_795_000_000.123 + i / 100,
  site_id: 1,
  client_ip: '192.0.2.1',
  method: 'GET',
  host: 'a.test',
  // What the batch parser cuts at, inside strings: the batch is stored as sent all the same.
  uri: `/p/${i}?q="x",[y]},{],"stream":[\u00e9`,
  status: 200 + (i % 2) * 100,
  bytes_sent: 100,
  bytes_received: 10,
  request_time: 0.001,
  upstream_time: i % 2 === 0 ? null : 0.002,
  cache_status: i % 3 === 0 ? 'HIT' : '',
  user_agent: 'curl',
  referer: '',
  block_reason: '',
  country: 'NL',
});

describe.each(DIALECTS)('POST /agent/v1/logs on $dialect', (target) => {
  let test: TestApp;
  let credential: string;
  beforeEach(async () => {
    test = await startTestApp(target, { codeChannels: false });
    const admin = await test.login('admin', ADMIN_PASSWORD);
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
    credential = (poll.json().data as { credential: string }).credential;
  });
  afterEach(async () => {
    await test.close();
  });

  const post = async (payload: string) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/agent/v1/logs',
      headers: { 'node-token': credential, 'content-type': 'application/json' },
      payload,
    });
    return {
      status: response.statusCode,
      body: response.json() as { code: number | string; msg: string; data: unknown },
    };
  };
  const storedUris = async () =>
    (await test.database.logs.selectFrom('access_logs').select('uri').orderBy('id').execute()).map((row) => row.uri);

  it('stores a batch as agents write it, and any other JSON of one, the same; a repeat once', async () => {
    // Large enough to be parsed in pieces.
    const batch: LogBatchBody = { seq: 1, access: Array.from({ length: 600 }, (_, i) => line(i)), stream: [] };
    expect((await post(JSON.stringify(batch))).body.data).toEqual({ seq: 1, duplicate: false });
    expect((await post(JSON.stringify(batch))).body.data).toEqual({ seq: 1, duplicate: true });
    const pretty = { ...batch, seq: 2 };
    expect((await post(JSON.stringify(pretty, null, 2))).body.data).toEqual({ seq: 2, duplicate: false });
    const uris = batch.access.map((l) => l.uri);
    expect(await storedUris()).toEqual([...uris, ...uris]);
    const minutes = await test.database.logs
      .selectFrom('site_traffic_minutes')
      .select(['bucket', 'requests', 'status_2xx', 'status_3xx', 'cache_hits'])
      .orderBy('bucket')
      .execute();
    const hits = batch.access.filter((l) => l.cache_status === 'HIT').length;
    expect(minutes).toEqual([
      { bucket: 1_794_999_960, requests: 1200, status_2xx: 600, status_3xx: 600, cache_hits: 2 * hits },
    ]);
  });

  it('refuses a number made infinite, a poisoned line and broken JSON, storing nothing', async () => {
    const body = JSON.stringify({ seq: 1, access: [line(0), line(1)], stream: [] });
    // Ajv coerces the text to Infinity.
    const infinite = await post(
      body.replace('"bytes_sent":100', '"bytes_sent":"1e309"').replace(/"time":[0-9.]+/, '"time":"1e309"'),
    );
    expect(infinite.status).toBe(400);
    expect(infinite.body).toMatchObject({ code: 'invalid_param', msg: 'body/access/0/time: must be a finite number' });
    const poisoned = await post(body.replace('"host":"a.test"', '"__proto__":{"admin":true}'));
    expect(poisoned.status).toBe(400);
    expect((await post(body.replace('],"stream"', ',],"stream"'))).status).toBe(400);
    expect(await storedUris()).toEqual([]);
  });
});
