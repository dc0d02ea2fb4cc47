import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import type { EdgeSite } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localRequest } from '../src/local-http.ts';
import { makeSelfSignedCert } from '../src/testing/certs.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import {
  createEdge,
  fastPathModuleOrSkip,
  LUA_MARK,
  nginxWorkers,
  restartMarked,
  type TestEdge,
} from './support/edge.ts';
import { type Answer, edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const MODULE = fastPathModuleOrSkip();

/**
 * The edge's nginx module serves the sites that need nothing of the Lua router (nginx/
 * ngx_http_rampart_module.c, lua/rampart/fast.lua), and every other request goes through Lua as
 * before. The live config is the agent's own, with one addition for the test: the Lua router marks
 * the requests it routed with a header the origin sees, so each case shows which path served it.
 */
describe.skipIf(MODULE === null)('the fast path in a real nginx', () => {
  let edge: TestEdge;
  let a: Origin;
  let b: Origin;
  const origin = (target: Origin) => ({ address: '127.0.0.1', port: target.port, weight: 1, backup: false });
  let sites: (version: 'before' | 'after') => EdgeSite[];
  let cert: { cert_pem: string; key_pem: string };

  const get = (host: string, options: { path?: string; headers?: Record<string, string>; tls?: boolean } = {}) =>
    edgeRequest(options.tls ? edge.ports.https : edge.ports.http, { host, ...options });
  /** What the origin saw of a request it answered: its name and whether the Lua router routed it. */
  const seen = (answer: Answer) => {
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body) as { origin: string; headers: Record<string, string> };
    return { origin: body.origin, lua: body.headers[LUA_MARK] === 'lua', headers: body.headers };
  };
  /** Each logged request as `host site_id balancer` (the balancer "lua" when the Lua balancer chose). */
  const logged = async () => {
    const text = await readFile(edge.paths.accessLog, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const entry = JSON.parse(line) as { host: string; site_id: string; balancer: string };
        return `${entry.host} ${entry.site_id} ${entry.balancer}`.trim();
      });
  };

  beforeAll(async () => {
    edge = await createEdge();
    a = await startOrigin('a');
    b = await startOrigin('b');
    cert = await makeSelfSignedCert(['secure.test']);
    sites = (version) => [
      makeSite({ id: 20, domains: ['fast.test', '*.fastwild.test'], origins: [origin(version === 'before' ? a : b)] }),
      makeSite({
        id: 21,
        domains: ['gz.test'],
        origins: [origin(a)],
        gzip: true,
        request_headers: version === 'before' ? [] : [{ name: 'X-Edge', value: 'now in lua' }],
      }),
      makeSite({
        id: 22,
        domains: ['exact.fastwild.test'],
        origins: [origin(b)],
        request_headers: [{ name: 'X-Edge', value: 'lua' }],
      }),
      makeSite({ id: 23, domains: ['ws.test'], origins: [origin(a)], websocket: true }),
      makeSite({
        id: 24,
        domains: ['secure.test'],
        origins: [origin(a)],
        https_listen: true,
        cert_id: 1,
        force_https: true,
      }),
      makeSite({ id: 25, domains: ['two.test'], origins: [origin(a), origin(b)] }),
      makeSite({ id: 26, domains: ['named.test'], origins: [origin(a)], origin_host: 'origin.internal' }),
    ];
    const outcome = await edge.applier.apply(
      edge.snapshot({ version: 1, certs: [{ id: 1, ...cert }], sites: sites('before') }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [] });
    // The agent's config, and the Lua router marking what it routed.
    const conf = await restartMarked(edge);
    expect(conf).toContain('rampart_route;');
    expect(conf).toContain('rampart_fast_peer;');
  });

  afterAll(async () => {
    await edge?.close();
    await a?.close();
    await b?.close();
  });

  it('serves a site that needs nothing of the router without Lua, by its exact name and its wildcard', async () => {
    expect(seen(await get('fast.test'))).toMatchObject({ origin: 'a', lua: false });
    expect(seen(await get('any.fastwild.test', { path: '/x?y=1' }))).toMatchObject({ origin: 'a', lua: false });
    // The origin gets what `location /` sends for the Lua router's plain sites.
    const { headers } = seen(await get('fast.test'));
    expect(headers.host).toBe('fast.test');
    expect(headers['x-real-ip']).toBe('127.0.0.1');
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers.connection).toBeUndefined();
    // Logged as the site's requests.
    await eventually(async () => {
      const lines = await logged();
      expect(lines).toContain('fast.test 20');
      expect(lines).toContain('any.fastwild.test 20');
    });
  });

  it('leaves to Lua an exact name under a fast wildcard, a site of two origins, and names no site serves', async () => {
    const exact = seen(await get('exact.fastwild.test'));
    expect(exact).toMatchObject({ origin: 'b', lua: true });
    expect(exact.headers['x-edge']).toBe('lua');
    expect(seen(await get('two.test')).lua).toBe(true);
    const unknown = await get('nobody.test');
    expect(unknown.status).not.toBe(200);
    expect(a.requests.some((r) => r.headers.host === 'nobody.test')).toBe(false);
  });

  it('gives the one origin of a site the Lua router served without the Lua balancer, in any location', async () => {
    // A header of its own (the router stays in `location /`), an origin host (it sends the request
    // to a named location), and two origins, which only the Lua balancer chooses between.
    expect(seen(await get('exact.fastwild.test'))).toMatchObject({ origin: 'b', lua: true });
    const named = JSON.parse((await get('named.test')).body) as { origin: string; host: string };
    expect(named).toMatchObject({ origin: 'a', host: 'origin.internal' });
    expect(seen(await get('two.test')).lua).toBe(true);
    await eventually(async () => {
      const lines = await logged();
      expect(lines).toContain('exact.fastwild.test 22');
      expect(lines).toContain('named.test 26');
      expect(lines).toContain('two.test 25 lua');
      expect(lines).not.toContain('exact.fastwild.test 22 lua');
      expect(lines).not.toContain('named.test 26 lua');
    });
  });

  it('compresses for a site with gzip and not for one without, and the origin still gets Accept-Encoding', async () => {
    // The origin echoes the headers it got: a long one makes the answer long enough to compress.
    const headers = { 'accept-encoding': 'gzip', 'x-pad': 'x'.repeat(400) };
    const plain = await get('fast.test', { headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(400);
    expect(seen(plain)).toMatchObject({ lua: false });
    expect(seen(plain).headers['accept-encoding']).toBe('gzip');
    const compressed = await get('gz.test', { headers });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    // Sites the Lua router serves: the module keeps the filter out of them too, and the router
    // leaves the client's header on the request.
    for (const host of ['two.test', 'exact.fastwild.test']) {
      const routed = await get(host, { headers });
      expect(routed.headers['content-encoding']).toBeUndefined();
      expect(seen(routed)).toMatchObject({ lua: true, headers: { 'accept-encoding': 'gzip' } });
    }
  });

  it('takes a WebSocket upgrade to the Lua router and a plain request of the same site without it', async () => {
    expect(seen(await get('ws.test'))).toMatchObject({ origin: 'a', lua: false });
    const upgraded = await new Promise<string>((resolve, reject) => {
      const socket = connect(edge.ports.http, '127.0.0.1', () => {
        socket.write(
          'GET /chat HTTP/1.1\r\nHost: ws.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        );
      });
      socket.once('data', (chunk) => {
        resolve(chunk.toString('latin1').split('\r\n')[0] ?? '');
        socket.destroy();
      });
      socket.on('error', reject);
    });
    // Only the Lua router's WebSocket location passes Upgrade on: `location /` clears it.
    expect(upgraded).toBe('HTTP/1.1 101 Switching Protocols');
  });

  it('redirects a plain request of a force-HTTPS site in Lua and serves it over TLS without', async () => {
    const moved = await get('secure.test', { path: '/p?q=1' });
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`https://secure.test:${edge.ports.https}/p?q=1`);
    const secure = seen(await get('secure.test', { tls: true }));
    expect(secure).toMatchObject({ origin: 'a', lua: false });
    expect(secure.headers['x-forwarded-proto']).toBe('https');
  });

  it('follows a routing swap: a new origin, and a site that now needs the router goes back to Lua', async () => {
    const swapsBefore = JSON.parse((await localRequest({ port: edge.ports.control, path: '/swaps' }))?.body ?? '{}');
    const outcome = await edge.applier.apply(
      edge.snapshot({ version: 2, certs: [{ id: 1, ...cert }], sites: sites('after') }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [] });
    const swapsAfter = JSON.parse((await localRequest({ port: edge.ports.control, path: '/swaps' }))?.body ?? '{}');
    // A swap, not a reload: the marked config is still the one running.
    expect(swapsAfter.delta + swapsAfter.full).toBeGreaterThan(swapsBefore.delta + swapsBefore.full);
    expect(seen(await get('fast.test'))).toMatchObject({ origin: 'b', lua: false });
    const now = seen(await get('gz.test'));
    expect(now).toMatchObject({ origin: 'a', lua: true });
    expect(now.headers['x-edge']).toBe('now in lua');
  });

  it('serves the swapped table from a worker started after its worker was killed', async () => {
    // The nginx master still holds the first table (the swap reached the workers only): the new
    // worker starts from it and must take the swap before it answers, in Lua and in the module.
    const [worker] = await nginxWorkers(edge);
    process.kill(Number(worker), 'SIGKILL');
    await eventually(async () => {
      const now = await nginxWorkers(edge);
      expect(now.length).toBe(1);
      expect(now).not.toContain(worker);
    });
    expect(seen(await get('fast.test'))).toMatchObject({ origin: 'b', lua: false });
    expect(seen(await get('gz.test'))).toMatchObject({ origin: 'a', lua: true });
  });
});
