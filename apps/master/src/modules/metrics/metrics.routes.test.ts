import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, logLine, shipLogs } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { parseExposition, sampleValue } from './exposition-parser.ts';

describe.each(DIALECTS)('GET /metrics on $dialect', (target) => {
  let test: TestApp | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  /** Scrapes over real HTTP on the app's loopback port. */
  async function scrape(base: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}/metrics`, { headers });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  }
  async function listen(app: TestApp) {
    await app.app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.app.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  it('answers loopback scrapes in the text format, and its counts move with requests, lines and nodes', async () => {
    test = await startTestApp(target, { background: false });
    const base = await listen(test);
    const admin = await test.login('admin', ADMIN_PASSWORD);

    const first = await scrape(base);
    expect(first.status).toBe(200);
    expect(first.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const before = parseExposition(first.text);
    expect(before.types.get('rampart_http_request_duration_seconds')).toBe('histogram');
    expect(before.types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(before.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    const users = { route: '/v1/users/:id', method: 'GET', status_code: '200' };
    expect(sampleValue(before.samples, 'rampart_http_request_duration_seconds_count', users)).toBe(0);
    expect(sampleValue(before.samples, 'rampart_nodes', { state: 'online' })).toBe(0);

    for (const id of [1, 1, 1]) {
      const read = await test.call('GET', `/v1/users/${id}?x=${id}`, { token: admin });
      expect(read.status).toBe(200);
    }
    expect((await test.call('GET', '/v1/users/999999', { token: admin })).status).toBe(404);
    const node = await acceptedNode(test);
    await shipLogs(test, node, 1, [logLine({}), logLine({ uri: '/a' })]);
    await test.app.inject({
      method: 'GET',
      url: '/agent/v1/config?version=0',
      headers: { 'node-token': node.credential },
    });

    const after = parseExposition((await scrape(base)).text).samples;
    // One series per route pattern: the ids and query strings of the URLs are not labels.
    expect(sampleValue(after, 'rampart_http_request_duration_seconds_count', users)).toBe(3);
    expect(sampleValue(after, 'rampart_http_request_duration_seconds_count', { ...users, status_code: '404' })).toBe(1);
    expect(sampleValue(after, 'rampart_http_request_duration_seconds_bucket', { ...users, le: '+Inf' })).toBe(3);
    expect(after.some((sample) => sample.labels.route?.includes('999999') || sample.labels.route?.includes('?'))).toBe(
      false,
    );
    expect(sampleValue(after, 'rampart_ingest_lines_total', { kind: 'access' })).toBe(2);
    expect(sampleValue(after, 'rampart_ingest_batches_total')).toBe(1);
    expect(
      sampleValue(after, 'rampart_nodes', { state: 'online' }) +
        sampleValue(after, 'rampart_nodes', { state: 'offline' }),
    ).toBe(1);
    expect(sampleValue(after, 'rampart_config_version')).toBeGreaterThan(0);
    expect(after.find((sample) => sample.name === 'rampart_node_config_version')?.labels).toMatchObject({
      node_id: String(node.nodeId),
    });
    expect(sampleValue(after, 'rampart_queue_depth', { queue: 'tasks', state: 'queued' })).toBe(0);
  });

  it('refuses clients off loopback unless a token is configured, then asks every client for it', async () => {
    test = await startTestApp(target, { background: false });
    const remote = await test.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(403);
    expect(remote.body).toMatch(/only loopback clients/);
    const forwarded = await test.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(forwarded.statusCode).toBe(403);
    await test.close();

    test = await startTestApp(target, { background: false, env: { RAMPART_METRICS_TOKEN: 'scrape-token-1' } });
    const base = await listen(test);
    const none = await scrape(base);
    expect(none.status).toBe(401);
    expect(none.text).toMatch(/Authorization: Bearer/);
    expect((await scrape(base, { authorization: 'Bearer scrape-token-2' })).status).toBe(401);
    const good = await scrape(base, { authorization: 'Bearer scrape-token-1' });
    expect(good.status).toBe(200);
    expect(parseExposition(good.text).types.get('rampart_agents_connected')).toBe('gauge');
    const remoteWithToken = await test.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.9',
      headers: { authorization: 'Bearer scrape-token-1' },
    });
    expect(remoteWithToken.statusCode).toBe(200);
  });
});
