import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from '../src/testing/certs.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

describe('sites through a real nginx', () => {
  let edge: TestEdge;
  let a: Origin;
  let b: Origin;
  let secure: Origin;
  let deadPort: number;
  let certs: Record<string, { cert_pem: string; key_pem: string }>;

  beforeAll(async () => {
    edge = await createEdge();
    a = await startOrigin('a');
    b = await startOrigin('b');
    const originCert = await makeSelfSignedCert(['origin.internal']);
    secure = await startOrigin('secure', { tls: { cert: originCert.cert_pem, key: originCert.key_pem } });
    const dead = await startOrigin('dead');
    deadPort = dead.port;
    await dead.close();
    certs = {
      one: await makeSelfSignedCert(['one.test', '*.one.test']),
      two: await makeSelfSignedCert(['two.test']),
    };
    const origin = (port: number, weight = 1, backup = false) => ({ address: '127.0.0.1', port, weight, backup });
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 3,
        certs: [
          { id: 1, ...certs.one! },
          { id: 2, ...certs.two! },
        ],
        sites: [
          makeSite({
            id: 10,
            domains: ['plain.test', '*.wild.test'],
            origins: [origin(a.port)],
            request_headers: [{ name: 'X-Edge', value: 'rampart 1' }],
            response_headers: [{ name: 'X-Served-By', value: 'edge-a' }],
          }),
          makeSite({ id: 11, domains: ['renamed.test'], origins: [origin(a.port)], origin_host: 'origin.internal' }),
          makeSite({
            id: 12,
            domains: ['one.test', 'www.one.test'],
            origins: [origin(a.port)],
            https_listen: true,
            cert_id: 1,
            force_https: true,
            hsts: true,
            http2: true,
          }),
          makeSite({ id: 13, domains: ['two.test'], origins: [origin(b.port)], https_listen: true, cert_id: 2 }),
          makeSite({ id: 14, domains: ['ws.test'], origins: [origin(a.port)], websocket: true }),
          makeSite({
            id: 15,
            domains: ['weighted.test'],
            balance: 'weighted',
            origins: [origin(a.port, 3), origin(b.port, 1)],
          }),
          makeSite({ id: 16, domains: ['failover.test'], origins: [origin(deadPort), origin(b.port)] }),
          makeSite({ id: 17, domains: ['backup.test'], origins: [origin(deadPort), origin(b.port, 1, true)] }),
          makeSite({
            id: 18,
            domains: ['tls-origin.test'],
            origins: [origin(secure.port)],
            origin_protocol: 'https',
            origin_host: 'origin.internal',
            cache_rules: [{ match: 'prefix', value: '/cached/', ttl: 300, ignore_query: false, honor_origin: false }],
          }),
          makeSite({
            id: 19,
            domains: ['follow.test'],
            origins: [origin(secure.port)],
            origin_protocol: 'follow',
            https_listen: true,
            cert_id: 2,
            cache_rules: [{ match: 'prefix', value: '/cached/', ttl: 300, ignore_query: true, honor_origin: false }],
          }),
          makeSite({ id: 20, domains: ['gzip.test'], origins: [origin(a.port)], gzip: true }),
          makeSite({ id: 21, domains: ['sticky.test'], balance: 'ip_hash', origins: [origin(a.port), origin(b.port)] }),
          makeSite({ id: 22, domains: ['bare.test'], origins: [origin(a.port)], gzip: true }),
          makeSite({
            id: 23,
            domains: ['own-ip.test'],
            origins: [origin(a.port)],
            gzip: true,
            request_headers: [{ name: 'X-Real-IP', value: '192.0.2.7' }],
          }),
          makeSite({ id: 24, domains: ['nozip.test'], origins: [origin(a.port)], gzip: false }),
        ],
        acme_challenges: [{ token: 'tok_en-1', key_authorization: 'tok_en-1.thumb-print' }],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [], error: '', liveVersion: 3 });
  });

  afterAll(async () => {
    await edge?.close();
    await a?.close();
    await b?.close();
    await secure?.close();
  });

  it('proxies to the origin with the visitor Host, custom request and response headers', async () => {
    const answer = await edgeRequest(edge.ports.http, { host: 'plain.test', path: '/hello?x=1' });
    expect(answer.status).toBe(200);
    const seen = JSON.parse(answer.body);
    expect(seen).toMatchObject({ origin: 'a', host: 'plain.test', url: '/hello?x=1' });
    expect(seen.headers['x-edge']).toBe('rampart 1');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(answer.headers['x-served-by']).toBe('edge-a');
  });

  it("sends nginx's own forwarding headers for a site without headers of its own, and the site's where it has them", async () => {
    const seen = async (host: string, headers: Record<string, string> = {}) =>
      JSON.parse((await edgeRequest(edge.ports.http, { host, headers })).body);
    // `br`: nginx compresses only for gzip, so the body stays readable here.
    const bare = await seen('bare.test', {
      'accept-encoding': 'br',
      upgrade: 'websocket',
      'x-real-ip': '6.6.6.6',
      'x-forwarded-for': '198.51.100.1',
      'x-forwarded-proto': 'ftp',
    });
    expect(bare).toMatchObject({ origin: 'a', host: 'bare.test' });
    expect(bare.headers).toMatchObject({
      'x-real-ip': '127.0.0.1',
      'x-forwarded-for': '198.51.100.1, 127.0.0.1',
      'x-forwarded-proto': 'http',
      'accept-encoding': 'br',
    });
    expect(bare.headers.upgrade).toBeUndefined();
    const own = await seen('own-ip.test');
    expect(own.headers['x-real-ip']).toBe('192.0.2.7');
    expect(own.headers['x-forwarded-for']).toBe('127.0.0.1');
    // gzip off: the origin still learns what the client accepts, and the edge compresses nothing.
    const nozip = await edgeRequest(edge.ports.http, { host: 'nozip.test', headers: { 'accept-encoding': 'gzip' } });
    expect(JSON.parse(nozip.body).headers['accept-encoding']).toBe('gzip');
    expect(nozip.headers['content-encoding']).toBeUndefined();
  });

  it('matches wildcard domains and sends the configured origin Host', async () => {
    const wild = JSON.parse((await edgeRequest(edge.ports.http, { host: 'deep.wild.test' })).body);
    expect(wild.host).toBe('deep.wild.test');
    const renamed = JSON.parse((await edgeRequest(edge.ports.http, { host: 'renamed.test' })).body);
    expect(renamed.host).toBe('origin.internal');
  });

  it('answers names no site serves with the 404 page, and never reaches an origin', async () => {
    const before = a.requests.length + b.requests.length;
    const answer = await edgeRequest(edge.ports.http, { host: 'nobody.test' });
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('No site here');
    expect(a.requests.length + b.requests.length).toBe(before);
  });

  it('serves HTTPS with the certificate chosen by SNI, with HSTS', async () => {
    const one = await edgeRequest(edge.ports.https, { host: 'www.one.test', tls: true });
    expect(one.status).toBe(200);
    expect(one.cert?.subject?.CN).toBe('one.test');
    expect(one.headers['strict-transport-security']).toBe('max-age=31536000');
    const two = await edgeRequest(edge.ports.https, { host: 'two.test', tls: true });
    expect(two.cert?.subject?.CN).toBe('two.test');
    expect(JSON.parse(two.body).origin).toBe('b');
    expect(two.headers['strict-transport-security']).toBeUndefined();
  });

  it('redirects HTTP to HTTPS when forced', async () => {
    const answer = await edgeRequest(edge.ports.http, { host: 'one.test', path: '/p?q=1' });
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`https://one.test:${edge.ports.https}/p?q=1`);
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  it('passes a WebSocket upgrade through and relays frames both ways', async () => {
    const socket = connect(edge.ports.http, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.write(
      'GET /chat HTTP/1.1\r\nHost: ws.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    const text = () => Buffer.concat(received).toString('latin1');
    await waitFor(() => text().includes('\r\n\r\n'));
    expect(text()).toMatch(/^HTTP\/1\.1 101/);
    expect(text()).toContain('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
    received.length = 0;
    socket.write('frame-bytes');
    await waitFor(() => text() === 'frame-bytes');
    socket.destroy();
  });

  it('balances by weight between two origins', async () => {
    const counts: Record<string, number> = { a: 0, b: 0 };
    for (let i = 0; i < 40; i++) {
      const answer = await edgeRequest(edge.ports.http, { host: 'weighted.test' });
      counts[JSON.parse(answer.body).origin] = (counts[JSON.parse(answer.body).origin] ?? 0) + 1;
    }
    expect(counts.a).toBe(30);
    expect(counts.b).toBe(10);
  });

  it('fails over from a dead origin, and to a backup origin', async () => {
    for (let i = 0; i < 6; i++) {
      const failover = await edgeRequest(edge.ports.http, { host: 'failover.test' });
      expect(failover.status).toBe(200);
      expect(JSON.parse(failover.body).origin).toBe('b');
      const backup = await edgeRequest(edge.ports.http, { host: 'backup.test' });
      expect(backup.status).toBe(200);
      expect(JSON.parse(backup.body).origin).toBe('b');
    }
  });

  it('reaches an HTTPS origin with SNI and Host set to the origin host', async () => {
    const answer = await edgeRequest(edge.ports.http, { host: 'tls-origin.test' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      origin: 'secure',
      host: 'origin.internal',
      sni: 'origin.internal',
    });
  });

  it('follows the visitor scheme to the origin', async () => {
    const answer = await edgeRequest(edge.ports.https, { host: 'follow.test', tls: true });
    expect(JSON.parse(answer.body)).toMatchObject({ origin: 'secure', host: 'follow.test', sni: 'follow.test' });
    // Plain HTTP to the same TLS-only origin is not rewritten: the origin refuses it.
    expect((await edgeRequest(edge.ports.http, { host: 'follow.test' })).status).toBe(502);
  });

  it('caches what an HTTPS origin answers, the query in the key or not as the rule says', async () => {
    const get = (host: string, path: string) =>
      host === 'follow.test'
        ? edgeRequest(edge.ports.https, { host, path, tls: true })
        : edgeRequest(edge.ports.http, { host, path });
    for (const [host, sni] of [
      ['tls-origin.test', 'origin.internal'],
      ['follow.test', 'follow.test'],
    ] as const) {
      const first = await get(host, '/cached/a?x=1');
      expect(first.status).toBe(200);
      expect(first.headers['x-cache-status']).toBe('MISS');
      expect(JSON.parse(first.body)).toMatchObject({ origin: 'secure', sni, url: '/cached/a?x=1' });
      const again = await get(host, '/cached/a?x=1');
      expect(again.headers['x-cache-status']).toBe('HIT');
      expect(again.body).toBe(first.body);
    }
    // tls-origin.test keys by path and query; follow.test's rule leaves the query out.
    expect((await get('tls-origin.test', '/cached/a?x=2')).headers['x-cache-status']).toBe('MISS');
    const other = await get('follow.test', '/cached/a?x=2');
    expect(other.headers['x-cache-status']).toBe('HIT');
    expect(JSON.parse(other.body)).toMatchObject({ url: '/cached/a?x=1' });
  });

  it('keeps one client on one origin with ip_hash', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      seen.add(JSON.parse((await edgeRequest(edge.ports.http, { host: 'sticky.test' })).body).origin);
    }
    expect(seen.size).toBe(1);
  });

  it('answers ACME HTTP-01 challenges for any name, and nothing else under that path', async () => {
    for (const host of ['plain.test', 'not-a-site.test']) {
      const answer = await edgeRequest(edge.ports.http, { host, path: '/.well-known/acme-challenge/tok_en-1' });
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('tok_en-1.thumb-print');
    }
    // An unknown token goes to the site like any other path (and to the 404 page for a name no site serves).
    const other = await edgeRequest(edge.ports.http, { host: 'plain.test', path: '/.well-known/acme-challenge/other' });
    expect(JSON.parse(other.body)).toMatchObject({ origin: 'a', url: '/.well-known/acme-challenge/other' });
    const nowhere = await edgeRequest(edge.ports.http, {
      host: 'not-a-site.test',
      path: '/.well-known/acme-challenge/other',
    });
    expect(nowhere.status).toBe(404);
  });

  it('compresses responses when gzip is on, and only then', async () => {
    const zipped = await edgeRequest(edge.ports.http, { host: 'gzip.test', headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const plain = await edgeRequest(edge.ports.http, { host: 'plain.test', headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
