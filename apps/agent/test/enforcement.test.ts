import { connect, createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from '../src/testing/certs.ts';
import { makeSite, makeStream } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const KB = 1024;
const BODY = 384 * KB;
const THROTTLE_KBPS = 64;
const CAP_BPS = 128 * KB;
const STREAM_BODY = 192 * KB;

/**
 * The least time nginx can take to send `bytes` at `rate` bytes/s: its limit lets a response send
 * `rate` bytes in the first second already, so one second less than the plain quotient; the
 * assertions take a further quarter off so that a coarse clock never fails them.
 */
const leastSeconds = (bytes: number, rate: number) => (bytes / rate - 1) * 0.75;

describe('sites of inactive packages and bandwidth caps on a real nginx', () => {
  let origin: Origin;
  let edge: TestEdge;
  let streamOrigin: Server;
  let streamPort: number;
  const originOf = (port: number) => [{ address: '127.0.0.1', port, weight: 1, backup: false }];

  /** Seconds a download of `path` from `host` takes, with its status and length. */
  const timed = async (host: string, path = '/big') => {
    const started = performance.now();
    const answer = await edgeRequest(edge.ports.http, { host, path });
    return { status: answer.status, length: answer.body.length, seconds: (performance.now() - started) / 1000 };
  };

  /** The control server's count of requests open per capped site. */
  const openRequests = async () =>
    JSON.parse((await edgeRequest(edge.ports.control, { host: '127.0.0.1', path: '/bandwidth' })).body) as Record<
      string,
      number
    >;

  beforeAll(async () => {
    origin = await startOrigin('origin');
    origin.respond((req, res) => {
      const big = req.url?.startsWith('/big') ?? false;
      res.writeHead(200, { 'content-type': 'text/plain', 'x-accel-limit-rate': '0' });
      res.end(big ? 'x'.repeat(BODY) : 'small');
    });
    // A TCP origin that sends STREAM_BODY bytes to each connection and closes it.
    streamOrigin = createServer((socket) => {
      socket.on('error', () => socket.destroy());
      socket.end(Buffer.alloc(STREAM_BODY, 'y'));
    });
    await new Promise<void>((resolve) => streamOrigin.listen(0, '127.0.0.1', resolve));
    streamPort = await freePort();
    edge = await createEdge();
    const site = (id: number, domain: string, extra: Parameters<typeof makeSite>[0]) =>
      makeSite({ id, domains: [domain], origins: originOf(origin.port), ...extra });
    const outcome = await edge.applier.apply(
      edge.snapshot({
        certs: [{ id: 1, ...(await makeSelfSignedCert(['secure.test'])) }],
        sites: [
          site(1, 'expired.test', { enforcement: { mode: 'suspend', reason: 'expired' } }),
          site(2, 'traffic.test', { enforcement: { mode: 'suspend', reason: 'traffic' } }),
          site(3, 'suspended.test', { enforcement: { mode: 'suspend', reason: 'suspended' } }),
          site(4, 'slow.test', { enforcement: { mode: 'throttle', rate_kbps: THROTTLE_KBPS } }),
          site(5, 'capped.test', { bandwidth_bps: CAP_BPS }),
          site(6, 'free.test', {}),
          site(7, 'secure.test', {
            https_listen: true,
            cert_id: 1,
            force_https: true,
            hsts: true,
            http2: true,
            enforcement: { mode: 'suspend', reason: 'expired' },
          }),
        ],
        streams: [
          makeStream({
            id: 1,
            listen_port: streamPort,
            origins: originOf((streamOrigin.address() as { port: number }).port),
            enforcement: { mode: 'throttle', rate_kbps: THROTTLE_KBPS },
          }),
        ],
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [], error: '' });
  });

  afterAll(async () => {
    await edge?.close();
    await origin?.close();
    await new Promise((resolve) => streamOrigin?.close(resolve));
  });

  it('answers every request of a suspended site with the page, 503 and Retry-After, without asking the origin', async () => {
    const before = origin.requests.length;
    const english = await edgeRequest(edge.ports.http, {
      host: 'expired.test',
      path: '/any/path?q=1',
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(english.status).toBe(503);
    expect(english.headers['retry-after']).toBe('3600');
    expect(english.headers['cache-control']).toBe('no-store');
    expect(english.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(english.body).toContain('Service suspended');
    expect(english.body).toContain('its package has expired');

    const chinese = await edgeRequest(edge.ports.http, {
      host: 'traffic.test',
      method: 'POST',
      body: 'x',
      headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' },
    });
    expect(chinese.status).toBe(503);
    expect(chinese.body).toContain('服务已暂停');
    expect(chinese.body).toContain('本月流量已用完');

    // No Accept-Language: the fleet's default language (zh-CN unless /config/error says otherwise).
    const fallback = await edgeRequest(edge.ports.http, { host: 'suspended.test' });
    expect(fallback.status).toBe(503);
    expect(fallback.body).toContain('此站点的服务已被服务商暂停');
    const english2 = await edgeRequest(edge.ports.http, {
      host: 'suspended.test',
      headers: { 'accept-language': 'en' },
    });
    expect(english2.body).toContain('suspended by the provider');
    expect(origin.requests.length).toBe(before);
    // Other sites are served as usual.
    expect(await edgeRequest(edge.ports.http, { host: 'free.test', path: '/small' })).toMatchObject({
      status: 200,
      body: 'small',
    });
  });

  it('answers the page over HTTPS too, and on HTTP of a site forcing HTTPS instead of the redirect', async () => {
    const before = origin.requests.length;
    const secure = await edgeRequest(edge.ports.https, {
      host: 'secure.test',
      tls: true,
      headers: { 'accept-language': 'en' },
    });
    expect(secure.status).toBe(503);
    expect(secure.body).toContain('its package has expired');
    expect(secure.headers['retry-after']).toBe('3600');
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(secure.cert?.subject.CN).toBe('secure.test');
    // A redirect would only lead to the same page; the visitor gets it at once.
    const plain = await edgeRequest(edge.ports.http, { host: 'secure.test', headers: { 'accept-language': 'en' } });
    expect(plain.status).toBe(503);
    expect(plain.headers.location).toBeUndefined();
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(origin.requests.length).toBe(before);
  });

  it('serves a throttled site at its rate per request, whatever the origin says', async () => {
    const download = await timed('slow.test');
    expect(download).toMatchObject({ status: 200, length: BODY });
    // 384 KB at 64 KB/s: 5 seconds at the least (3.75 with the margin).
    expect(download.seconds).toBeGreaterThanOrEqual(leastSeconds(BODY, THROTTLE_KBPS * KB));
  });

  it('caps a site’s bandwidth: one download at the cap, two at once share it', async () => {
    const alone = await timed('capped.test');
    expect(alone).toMatchObject({ status: 200, length: BODY });
    expect(alone.seconds).toBeGreaterThanOrEqual(leastSeconds(BODY, CAP_BPS));

    await eventually(async () => expect(await openRequests()).toEqual({ '5': 0 }));

    // The second of two downloads open together gets half of the cap.
    const downloads = Promise.all([timed('capped.test', '/big?1'), timed('capped.test', '/big?2')]);
    await eventually(async () => expect(await openRequests()).toEqual({ '5': 2 }));
    const both = await downloads;
    for (const download of both) expect(download).toMatchObject({ status: 200, length: BODY });
    const slower = Math.max(...both.map((download) => download.seconds));
    expect(slower).toBeGreaterThanOrEqual(leastSeconds(BODY, CAP_BPS / 2));
    // Both are released once logged; requests of other sites never counted.
    await eventually(async () => expect(await openRequests()).toEqual({ '5': 0 }));
  });

  it('throttles a stream of an inactive package', async () => {
    const started = performance.now();
    const received = await new Promise<number>((resolve, reject) => {
      let bytes = 0;
      const socket = connect(streamPort, '127.0.0.1');
      socket.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      socket.on('end', () => resolve(bytes));
      socket.on('error', reject);
    });
    expect(received).toBe(STREAM_BODY);
    expect((performance.now() - started) / 1000).toBeGreaterThanOrEqual(leastSeconds(STREAM_BODY, THROTTLE_KBPS * KB));
  });
});
