import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { connect as connectHttp2 } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AccessLogLine,
  DEFAULT_SITE_PROTECTION,
  type LogBatchBody,
  type SiteProtection,
} from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCrs } from '../src/apply/waf-runtime.ts';
import { silentLogger } from '../src/logger.ts';
import { LogShipper } from '../src/logs/shipper.ts';
import { WafAudit } from '../src/logs/waf-audit.ts';
import { makeSelfSignedCert } from '../src/testing/certs.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const waf = (
  mode: SiteProtection['waf']['mode'],
  exclusions: number[] = [],
  paranoia = 1,
  extra: Partial<SiteProtection['waf']> = {},
): SiteProtection => ({
  ...DEFAULT_SITE_PROTECTION,
  waf: { mode, paranoia, exclusions, ...extra },
});

const SQLI = `/items?id=${encodeURIComponent("1' OR 1=1--")}`;
const XSS = `/search?q=${encodeURIComponent('<script>alert(1)</script>')}`;

describe('the signature WAF (ModSecurity with the OWASP CRS) at the edge', () => {
  let edge: TestEdge;
  let origin: Origin;

  beforeAll(async () => {
    if (!findCrs('/usr/lib/nginx/modules')) {
      throw new Error(
        'ModSecurity and the CRS are needed: apt-get install libnginx-mod-http-modsecurity modsecurity-crs',
      );
    }
    edge = await createEdge();
    origin = await startOrigin('origin');
    const site = (id: number, domain: string, protection: SiteProtection, cache = false) =>
      makeSite({
        id,
        domains: [domain],
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        cache_rules: cache
          ? [{ match: 'prefix', value: '/static/', ttl: 600, ignore_query: false, honor_origin: false }]
          : [],
        protection,
      });
    const cert = await makeSelfSignedCert(['h2.test']);
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 2,
        certs: [{ id: 1, ...cert }],
        sites: [
          site(1, 'block.test', waf('block'), true),
          site(2, 'detect.test', waf('detect')),
          site(3, 'off.test', waf('off')),
          // At paranoia 1 the SQL injection probe below trips only 942100 (libinjection).
          site(4, 'excluded.test', waf('block', [942100])),
          site(5, 'trusted.test', waf('block')),
          site(6, 'inspect.test', waf('block', [], 1, { inspect_static: true })),
          site(7, 'custom.test', waf('block', [], 1, { static_exts: ['txt'] })),
          { ...site(8, 'h2.test', waf('block')), https_listen: true, cert_id: 1, http2: true },
        ],
        protection: {
          rule_groups: [],
          acls: [
            {
              site_id: 5,
              entries: [
                { action: 'allow', condition: { field: 'path', op: 'prefix', values: ['/trusted/'], negate: false } },
              ],
            },
          ],
          bans: [],
          unbans: [],
        },
      }),
    );
    expect(outcome.error).toBe('');
    expect(outcome).toMatchObject({ applied: true, errors: [] });
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  const get = (host: string, path: string) =>
    edgeRequest(edge.ports.http, { host, path, headers: { 'user-agent': 'Mozilla/5.0 (test)' } });

  it('blocks a classic SQL injection and an XSS probe in block mode with the edge page', async () => {
    const sqli = await get('block.test', SQLI);
    expect(sqli.status).toBe(403);
    expect(sqli.body).toContain('Access denied');
    expect((await get('block.test', XSS)).status).toBe(403);
    // In the cached locations too.
    expect(
      (await get('block.test', `/static/a.css?x=${encodeURIComponent("' UNION SELECT password FROM users--")}`)).status,
    ).toBe(403);
    const clean = await get('block.test', '/items?id=42');
    expect(clean.status).toBe(200);
    expect(clean.body).toContain('origin');
  });

  it('inspects request bodies: a form post with an injection is blocked', async () => {
    const response = await edgeRequest(edge.ports.http, {
      host: 'block.test',
      path: '/login',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0 (test)' },
      body: `user=${encodeURIComponent("admin' OR '1'='1")}&password=x`,
    });
    expect(response.status).toBe(403);
  });

  it('only logs in detect mode, and stays out of sites with the WAF off', async () => {
    expect((await get('detect.test', SQLI)).status).toBe(200);
    expect((await get('detect.test', XSS)).status).toBe(200);
    expect((await get('off.test', SQLI)).status).toBe(200);
  });

  it('lets a request an ACL allow entry decided skip the WAF, like every later check', async () => {
    expect((await get('trusted.test', `/trusted${SQLI}`)).status).toBe(200);
    expect((await get('trusted.test', SQLI)).status).toBe(403);
  });

  describe('static files', () => {
    const ATTACK_UA = '<script>alert(1)</script>';
    const send = (host: string, path: string, options: { method?: string; body?: string; ua?: string } = {}) =>
      edgeRequest(edge.ports.http, {
        host,
        path,
        method: options.method ?? 'GET',
        headers: {
          'user-agent': options.ua ?? ATTACK_UA,
          ...(options.body === undefined
            ? {}
            : {
                'content-type': 'application/x-www-form-urlencoded',
                'content-length': String(Buffer.byteLength(options.body)),
              }),
        },
        body: options.body,
      });

    it('serves a plain GET or HEAD of a static file without the engine, by default', async () => {
      const png = await send('block.test', '/a.png');
      expect(png.status).toBe(200);
      expect(png.body).toContain('"url":"/a.png"');
      expect((await send('block.test', '/img/Logo.PNG')).status).toBe(200);
      expect((await send('block.test', '/a.png', { method: 'HEAD' })).status).toBe(200);
      // The cached locations too.
      expect((await send('block.test', '/static/site.css')).status).toBe(200);
      // The same attack to a dynamic path is blocked.
      expect((await send('block.test', '/index.php')).status).toBe(403);
      expect((await send('block.test', '/a.png.php')).status).toBe(403);
      expect((await send('block.test', '/static/')).status).toBe(403);
    });

    it('inspects a static request for several byte ranges (the CRS Range rules), not one for a single range', async () => {
      const ranged = (name: string, value: string) =>
        edgeRequest(edge.ports.http, {
          host: 'block.test',
          path: '/doc.pdf',
          headers: { 'user-agent': ATTACK_UA, [name]: value },
        });
      expect((await ranged('range', 'bytes=100-')).status).toBe(200);
      expect((await ranged('range', 'bytes=0-99')).status).toBe(200);
      expect((await ranged('range', 'bytes=10-11, 20-21')).status).toBe(403);
      expect((await ranged('request-range', 'bytes=0-99')).status).toBe(403);
    });

    it('inspects static paths with a query string, a body, an encoded or unusual path', async () => {
      const clean = 'Mozilla/5.0 (test)';
      expect((await send('block.test', `/a.png?q=${encodeURIComponent(ATTACK_UA)}`, { ua: clean })).status).toBe(403);
      expect((await send('block.test', '/a.png?', {})).status).toBe(403);
      const body = `q=${encodeURIComponent("admin' OR '1'='1")}`;
      expect((await send('block.test', '/a.png', { method: 'POST', body, ua: clean })).status).toBe(403);
      // A GET with a body is inspected as well, framed by length or chunks.
      const attackBody = `x=${encodeURIComponent(ATTACK_UA)}`;
      expect((await send('block.test', '/a.png', { body: attackBody, ua: clean })).status).toBe(403);
      const chunked = await edgeRequest(edge.ports.http, {
        host: 'block.test',
        path: '/a.png',
        headers: { 'user-agent': ATTACK_UA, 'transfer-encoding': 'chunked' },
        body: 'x',
      });
      expect(chunked.status).toBe(403);
      // Percent-encoding or a dot segment in the raw path: the request goes through the engine.
      expect((await send('block.test', '/%61.png')).status).toBe(403);
      expect((await send('block.test', '/x/../a.png')).status).toBe(403);
      expect((await send('block.test', '/a.png;x=1')).status).toBe(403);
    });

    it('inspects an HTTP/2 static request with a body, which needs no length header', async () => {
      const session = connectHttp2(`https://127.0.0.1:${edge.ports.https}`, {
        servername: 'h2.test',
        rejectUnauthorized: false,
      });
      const h2 = (body?: string) =>
        new Promise<number>((resolve, reject) => {
          const stream = session.request(
            { ':method': 'GET', ':path': '/a.png', ':authority': 'h2.test', 'user-agent': ATTACK_UA },
            { endStream: body === undefined },
          );
          stream.on('response', (headers) => resolve(Number(headers[':status'])));
          stream.on('error', reject);
          stream.resume();
          if (body !== undefined) stream.end(body);
        });
      try {
        expect(await h2()).toBe(200);
        expect(await h2(`x=${encodeURIComponent(ATTACK_UA)}`)).toBe(403);
      } finally {
        session.close();
      }
    });

    it('inspects static files on a site that asks for it, and follows a site’s own extension list', async () => {
      expect((await send('inspect.test', '/a.png')).status).toBe(403);
      expect((await send('custom.test', '/a.png')).status).toBe(403);
      expect((await send('custom.test', '/notes.txt')).status).toBe(200);
    });

    it('logs skipped requests without a WAF transaction, inspected ones with one', async () => {
      await send('block.test', '/logged.png');
      await send('block.test', '/logged.php');
      await eventually(
        async () => {
          const lines = (await readFile(edge.paths.accessLog, 'utf8'))
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as { host: string; uri: string; status: number; waf_tx: string });
          const find = (uri: string) => lines.find((l) => l.host === 'block.test' && l.uri === uri);
          expect(find('/logged.png')).toMatchObject({ status: 200, waf_tx: '' });
          expect(find('/logged.php')).toMatchObject({ status: 403, waf_tx: expect.stringMatching(/^w\d+\.1\./) });
        },
        5000,
        100,
      );
    });
  });

  it('skips the rules a site excludes by id', async () => {
    expect((await get('excluded.test', SQLI)).status).toBe(200);
    expect((await get('excluded.test', XSS)).status).toBe(403);
  });

  it('ships each hit with its rules as the block reason of the request, exactly once', async () => {
    const spool = await mkdtemp(join(tmpdir(), 'rampart-waf-spool-'));
    await mkdir(join(spool, 'spool'));
    const batches: LogBatchBody[] = [];
    const shipper = new LogShipper({
      paths: {
        accessLog: edge.paths.accessLog,
        streamLog: edge.paths.streamLog,
        spoolDir: join(spool, 'spool'),
        logCursorFile: join(spool, 'cursor.json'),
      },
      spoolMaxBytes: 16 * 1024 * 1024,
      wafAudit: new WafAudit(edge.paths.wafAuditLog),
      pollMs: 50,
      batchMs: 50,
      log: silentLogger,
    });
    await shipper.start();
    shipper.setSender(async (batch) => {
      batches.push(batch);
      return { seq: batch.seq, duplicate: false };
    });
    try {
      await eventually(
        async () => {
          const lines = batches.flatMap((batch) => batch.access);
          const reason = (host: string, uri: string) =>
            lines.filter((line: AccessLogLine) => line.host === host && line.uri === uri).map((l) => l.block_reason);
          expect(reason('block.test', SQLI)).toEqual([
            expect.stringMatching(/^kind=waf;action=block;detail=rules [0-9,]*942100[0-9,]*: SQL Injection/),
          ]);
          expect(reason('block.test', XSS)).toEqual([expect.stringMatching(/^kind=waf;action=block;detail=rules 941/)]);
          expect(reason('detect.test', SQLI)).toEqual([expect.stringMatching(/^kind=waf;action=detect;detail=rules /)]);
          expect(reason('block.test', '/items?id=42')).toEqual(['']);
          expect(reason('off.test', SQLI)).toEqual(['']);
          expect(reason('excluded.test', SQLI)).toEqual(['']);
        },
        5000,
        100,
      );
    } finally {
      await shipper.stop();
      await rm(spool, { recursive: true, force: true });
    }
    // What ModSecurity wrote: one JSON line per transaction a rule matched, keyed by the edge's id.
    const audit = (await readFile(edge.paths.wafAuditLog, 'utf8')).trim().split('\n');
    expect(audit.every((line) => /"unique_id":"w\d+\.\d+\.[0-9a-f]+"/.test(line))).toBe(true);
  });

  it('keeps every hit’s rule detail while the audit log it has read is given back to the disk', async () => {
    const spool = await mkdtemp(join(tmpdir(), 'rampart-waf-release-'));
    await mkdir(join(spool, 'spool'));
    const batches: LogBatchBody[] = [];
    const shipper = new LogShipper({
      paths: {
        accessLog: edge.paths.accessLog,
        streamLog: edge.paths.streamLog,
        spoolDir: join(spool, 'spool'),
        logCursorFile: join(spool, 'cursor.json'),
      },
      spoolMaxBytes: 64 * 1024 * 1024,
      // Every read is given back at once, so entries keep arriving while it happens.
      wafAudit: new WafAudit(edge.paths.wafAuditLog, {
        cursorFile: join(spool, 'waf-cursor.json'),
        releaseBytes: 1,
        keepBytes: 0,
      }),
      pollMs: 20,
      batchMs: 50,
      log: silentLogger,
    });
    await shipper.start();
    shipper.setSender(async (batch) => {
      batches.push(batch);
      return { seq: batch.seq, duplicate: false };
    });
    const probe = (name: string) => `/release/${name}?id=${encodeURIComponent("1' OR 1=1--")}`;
    const hits = (phase: string, count: number) => Array.from({ length: count }, (_, i) => probe(`${phase}-${i}`));
    const reasons = () => {
      const found = new Map<string, string[]>();
      for (const line of batches.flatMap((batch) => batch.access)) {
        if (line.uri.startsWith('/release/')) found.set(line.uri, [...(found.get(line.uri) ?? []), line.block_reason]);
      }
      return found;
    };
    const shipped = async (uris: string[]) =>
      eventually(async () => {
        const found = reasons();
        for (const uri of uris) {
          expect(found.get(uri), uri).toEqual([expect.stringMatching(/^kind=waf;action=block;detail=rules [0-9,]+: /)]);
        }
      }, 20_000);
    try {
      const before = hits('before', 10);
      for (const uri of before) expect((await get('block.test', uri)).status).toBe(403);
      await shipped(before);
      // Six at a time while the reader reads and releases what it read.
      const during = hits('during', 60);
      for (let i = 0; i < during.length; i += 6) {
        const statuses = await Promise.all(
          during.slice(i, i + 6).map(async (uri) => (await get('block.test', uri)).status),
        );
        expect(statuses.every((status) => status === 403)).toBe(true);
      }
      const after = hits('after', 10);
      for (const uri of after) expect((await get('block.test', uri)).status).toBe(403);
      await shipped([...before, ...during, ...after]);
      expect(reasons().size).toBe(80);
    } finally {
      await shipper.stop();
      await rm(spool, { recursive: true, force: true });
    }
    // What was read is a hole now: the file takes less disk than its size, and nginx kept appending to it.
    const audit = await stat(edge.paths.wafAuditLog);
    expect(audit.blocks * 512).toBeLessThan(audit.size);
  });

  it('reports WAF sites as served without it on a node without ModSecurity, and serves them', async () => {
    const bare = await createEdge({ waf: false });
    try {
      const outcome = await bare.applier.apply(
        bare.snapshot({
          version: 2,
          sites: [
            makeSite({
              id: 1,
              domains: ['block.test'],
              origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
              protection: waf('block'),
            }),
          ],
        }),
      );
      expect(outcome).toMatchObject({ applied: true });
      expect(outcome.errors).toEqual([
        { kind: 'site', id: 1, error: expect.stringContaining('WAF (ModSecurity and the OWASP CRS) is not installed') },
      ]);
      const response = await edgeRequest(bare.ports.http, { host: 'block.test', path: SQLI });
      expect(response.status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
