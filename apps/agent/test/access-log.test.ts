import { readFile, rename, writeFile } from 'node:fs/promises';
import { connect as connectHttp2 } from 'node:http2';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { EdgeRuleGroup } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLogFormat } from '../src/render/nginx-conf.ts';
import { makeSelfSignedCert } from '../src/testing/certs.ts';
import { makeProtection, makeSite } from '../src/testing/snapshots.ts';
import { createEdge, fastPathModuleOrSkip, MODULE_ACCESS_LOG, replaceIn, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually, type RequestOptions } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const MODULE = fastPathModuleOrSkip();

/** One GET over HTTP/2 (TLS, SNI `host`) on a session of its own; answers the status. */
function http2Get(port: number, host: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const session = connectHttp2(`https://127.0.0.1:${port}`, { servername: host, rejectUnauthorized: false });
    session.on('error', reject);
    const stream = session.request({ ':method': 'GET', ':path': path, ':authority': host });
    stream.on('response', (headers) => {
      stream.resume();
      stream.on('end', () => {
        session.close();
        resolve(Number(headers[':status']));
      });
    });
    stream.on('error', reject);
  });
}

/**
 * One request written on a socket of its own, as bytes no HTTP client would send; answers the reply
 * once nginx closes the connection (the socket stays open until then: nginx takes a client that
 * closed its side while the request was proxied for one that went away).
 */
function rawRequest(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw request timed out')));
  });
}

const lines = async (path: string) =>
  (await readFile(path, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');

/**
 * The access log the agent's nginx module writes (nginx/ngx_http_rampart_log.c) must be, byte for
 * byte, the line nginx's log module writes from `log_format rampart_access`: the agent parses it,
 * and a node without the module writes it that way. One nginx writes both for every request (the
 * module's line unbuffered here, nginx's to a second file, with the country and WAF fields too, each
 * from a request header), so each request is compared with its twin, times included (both read
 * nginx's cached time in the same log phase).
 */
describe.skipIf(MODULE === null)("the nginx module's access log in a real nginx", () => {
  let edge: TestEdge;
  let origin: Origin;
  let twinLog = '';
  let closedPort = 0;
  /** A server of the test's own whose origin refuses, then error_page sends the request to another. */
  let redirectPort = 0;

  beforeAll(async () => {
    edge = await createEdge({ waf: false });
    origin = await startOrigin('origin');
    closedPort = await freePort();
    redirectPort = await freePort();
    const at = (port: number) => [{ address: '127.0.0.1', port, weight: 1, backup: false }];
    // Any second request of the client on guarded.test is over the limit: blocked, with a reason.
    const oncePerMinute: EdgeRuleGroup = {
      id: 1,
      rules: [
        {
          match_id: 1,
          filter_id: 1,
          conditions: [{ field: 'path', op: 'prefix', values: ['/'], negate: false }],
          filter: { name: '1 a minute', type: 'rate', requests: 1, seconds: 60, per: 'ip' },
          action: 'block',
          ban_seconds: 600,
        },
      ],
    };
    const applied = await edge.applier.apply(
      edge.snapshot({
        version: 1,
        sites: [
          makeSite({
            id: 7,
            domains: ['log.test', '*.log.test'],
            origins: at(origin.port),
            https_listen: true,
            cert_id: 1,
            http2: true,
          }),
          makeSite({ id: 8, domains: ['down.test'], origins: at(closedPort) }),
          // Each request tries both origins in some order: one that refuses first gives two times.
          makeSite({
            id: 10,
            domains: ['retry.test'],
            origins: [...at(closedPort), ...at(origin.port)],
          }),
          makeSite({
            id: 9,
            domains: ['guarded.test'],
            origins: at(origin.port),
            protection: makeProtection({ rule_group_id: 1 }),
          }),
        ],
        protection: { rule_groups: [oncePerMinute], acls: [], bans: [], unbans: [] },
        certs: [{ id: 1, ...(await makeSelfSignedCert(['log.test'])) }],
      }),
    );
    expect(applied).toMatchObject({ applied: true, errors: [] });

    const live = join(edge.paths.currentLink, 'nginx.conf');
    const conf = await readFile(live, 'utf8');
    twinLog = join(edge.dataDir, 'twin.log');
    const twin = [
      `$1log_format rampart_twin escape=json '${accessLogFormat(true, true)}';`,
      `$1access_log ${JSON.stringify(twinLog)} rampart_twin;`,
      // Control characters reach a line only from the config (nginx refuses them in requests).
      '$1map $http_x_test_country $rampart_country { ctl "a\x01b\x1fc\x7fd\\t"; late "0123456789\x02bcdef\x7fghijk"; default $http_x_test_country; }',
      '$1map $http_x_test_waf $rampart_waf_tx { default $http_x_test_waf; }',
      '$1rampart_access_log $2 country waf;',
      // A second upstream after an internal redirect: " : " between the two requests' times.
      `$1server { listen 127.0.0.1:${redirectPort}; server_name redirect.test;`,
      `$1    location / { proxy_pass http://127.0.0.1:${closedPort}; error_page 502 = @next; }`,
      `$1    location @next { proxy_pass http://127.0.0.1:${origin.port}; } }`,
    ].join('\n');
    if (!MODULE_ACCESS_LOG.test(conf)) throw new Error("the agent's config has no rampart_access_log");
    await writeFile(live, conf.replace(MODULE_ACCESS_LOG, twin));
    await edge.nginx.stop();
    const started = await edge.nginx.start(live);
    if (!started.ok) throw new Error(`nginx refused the twin config: ${started.output}`);
  });

  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  it('writes every request as nginx writes the same format: escapes, numbers, missing values, errors', async () => {
    const port = edge.ports.http;
    const get = (host: string, options: Omit<RequestOptions, 'host'>) => edgeRequest(port, { host, ...options });
    const before = (await lines(edge.paths.accessLog)).length;
    const statuses = [
      (await get('log.test', { path: '/a/b?c=1&d=%22x%22' })).status,
      (await get('www.log.test', { path: '/', headers: { 'user-agent': 'quote " back \\ tab \t end' } })).status,
      (await get('log.test', { method: 'POST', path: '/form', body: 'x'.repeat(5000) })).status,
      (await get('log.test', { method: 'HEAD', headers: { referer: 'http://ref.test/"q"' } })).status,
      (await get('log.test', { headers: { 'x-test-country': 'C"N', 'x-test-waf': 'tx\\1' } })).status,
      (await get('log.test', { headers: { 'x-test-country': 'ctl' } })).status,
      // Escapes past the first eight bytes (the module looks for them eight bytes at a time).
      (await get('log.test', { headers: { 'x-test-country': 'late' } })).status,
      (await get('log.test', { headers: { 'user-agent': 'abcdefghij"klmnopqrstuvwxyz' } })).status,
      (await get('log.test', { headers: { 'user-agent': 'abcdefghij\\klmnopqrstuvwxyz' } })).status,
      (await get('log.test', { headers: { 'user-agent': 'u'.repeat(6000) } })).status,
      (await edgeRequest(edge.ports.https, { host: 'log.test', path: '/tls', tls: true })).status,
      await http2Get(edge.ports.https, 'log.test', '/h2?x=1'),
      // No site: the node's default server, without a site id or an upstream.
      (await get('nobody.test', {})).status,
      // An origin that refuses: the upstream's time and a 502.
      (await get('down.test', {})).status,
      // The second request is blocked by the rate rule: the Lua router sets the reason.
      (await get('guarded.test', {})).status,
      (await get('guarded.test', {})).status,
      // Another attempt after a refused one, and another upstream after an internal redirect.
      (await get('retry.test', {})).status,
      (await get('retry.test', {})).status,
      (await get('retry.test', {})).status,
      (await get('retry.test', {})).status,
      (await edgeRequest(redirectPort, { host: 'redirect.test', path: '/next' })).status,
    ];
    expect(statuses).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 404, 502, 200, 403, 200, 200, 200, 200, 200,
    ]);
    // Bytes no client library sends: UTF-8 in a header, HTTP/1.0 without a Host (the node's default
    // server refuses it), and a request line nginx rejects.
    const raw = [
      await rawRequest(
        port,
        Buffer.concat([
          Buffer.from('GET /raw HTTP/1.1\r\nHost: log.test\r\nConnection: close\r\nUser-Agent: ', 'latin1'),
          Buffer.from('é 中文\r\n\r\n', 'utf8'),
        ]),
      ),
      await rawRequest(port, Buffer.from('GET /old HTTP/1.0\r\n\r\n', 'latin1')),
      await rawRequest(port, Buffer.from('BAD\r\n\r\n', 'latin1')),
    ];
    expect(raw.map((reply) => reply.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400', 'HTTP/1.1 400']);

    await eventually(async () => {
      const written = (await lines(edge.paths.accessLog)).slice(before);
      expect(written).toHaveLength(statuses.length + raw.length);
      expect(written).toEqual((await lines(twinLog)).slice(before));
    });
    const written = (await lines(edge.paths.accessLog)).slice(before);
    const parsed = written.map((line) => JSON.parse(line) as Record<string, string | number>);
    expect(parsed.map((line) => line.status)).toEqual([...statuses, 200, 400, 400]);
    expect(parsed[1]!.user_agent).toBe('quote " back \\ tab \t end');
    expect(parsed[4]).toMatchObject({ country: 'C"N', waf_tx: 'tx\\1' });
    expect(parsed[5]!.country).toBe('a\x01b\x1fc\x7fd\t');
    expect(written[5]).toContain('"country":"a\\u0001b\\u001Fc\x7fd\\t"');
    expect(parsed[6]!.country).toBe('0123456789\x02bcdef\x7fghijk');
    expect(parsed[7]!.user_agent).toBe('abcdefghij"klmnopqrstuvwxyz');
    expect(parsed[8]!.user_agent).toBe('abcdefghij\\klmnopqrstuvwxyz');
    expect(parsed[11]).toMatchObject({ uri: '/h2?x=1', status: 200 });
    expect(parsed[13]!.upstream_time).toMatch(/^\d+\.\d{3}/);
    expect(parsed[15]!.block_reason).not.toBe('');
    const upstreamTimes = parsed.map((line) => String(line.upstream_time));
    expect(upstreamTimes.filter((time) => /^\d+\.\d{3}, \d+\.\d{3}$/.test(time)).length).toBeGreaterThan(0);
    expect(upstreamTimes).toContainEqual(expect.stringMatching(/^\d+\.\d{3} : \d+\.\d{3}$/));
    expect(parsed.at(-3)!.user_agent).toBe('é 中文');
  });

  it('buffers as access_log does: flushed by its timer, before nginx reopens its logs, and at exit', async () => {
    const live = join(edge.paths.currentLink, 'nginx.conf');
    const conf = await readFile(live, 'utf8');
    const restartWith = async (params: string) => {
      await writeFile(live, replaceIn(conf, '" country waf;', `" ${params} country waf;`));
      await edge.nginx.stop();
      const started = await edge.nginx.start(live);
      if (!started.ok) throw new Error(`nginx refused the buffered config: ${started.output}`);
    };
    const get = async (path: string) =>
      expect((await edgeRequest(edge.ports.http, { host: 'log.test', path })).status).toBe(200);
    const uris = async (path: string) => (await lines(path)).map((line) => (JSON.parse(line) as { uri: string }).uri);

    // The flush timer writes a buffered line without another request.
    await restartWith('buffer=64k flush=1s');
    await get('/timer');
    await eventually(async () => expect((await uris(edge.paths.accessLog)).at(-1)).toBe('/timer'));

    // With a timer too long to matter: a rotation (rename, then USR1) finds the buffered line in the
    // renamed file and the next one in the new file, and stopping nginx writes what the buffer holds.
    await restartWith('buffer=64k flush=1h');
    await get('/rotated');
    expect(await uris(edge.paths.accessLog)).not.toContain('/rotated');
    const rotated = `${edge.paths.accessLog}.1`;
    await rename(edge.paths.accessLog, rotated);
    expect(await edge.nginx.reopenLogs()).toBe(true);
    await eventually(async () => expect((await uris(rotated)).at(-1)).toBe('/rotated'));
    await get('/after');
    expect(await uris(edge.paths.accessLog)).toEqual([]);
    await edge.nginx.stop();
    expect(await uris(edge.paths.accessLog)).toEqual(['/after']);
  });
});
