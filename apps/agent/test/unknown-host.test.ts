import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccessLogLine, EdgeUnknownHost, LogBatchBody } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCrs } from '../src/apply/waf-runtime.ts';
import { silentLogger } from '../src/logger.ts';
import { LogShipper } from '../src/logs/shipper.ts';
import { WafAudit } from '../src/logs/waf-audit.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const BROWSER = { 'user-agent': 'Mozilla/5.0 (test)', accept: 'text/html' };
const SQLI = `/items?id=${encodeURIComponent("1' OR 1=1--")}`;

/** One raw request on a fresh connection: the status line and body, or null when the edge closed without an answer. */
function rawRequest(port: number, text: string): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      if (answer === '') return resolve(null);
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(answer)?.[1];
      resolve({ status: Number(status), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
  });
}

/** Ships this edge's access log (with the WAF's findings) into `batches` until stopped. */
async function shipLogs(edge: TestEdge, batches: LogBatchBody[]) {
  const spool = await mkdtemp(join(tmpdir(), 'rampart-unknown-spool-'));
  await mkdir(join(spool, 'spool'));
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
  return async () => {
    await shipper.stop();
    await rm(spool, { recursive: true, force: true });
  };
}

describe('requests no site serves, through a real nginx', () => {
  let edge: TestEdge;
  let origin: Origin;
  let version = 1;
  const batches: LogBatchBody[] = [];
  let stopShipping: () => Promise<void> = async () => {};

  const apply = async (unknownHost?: EdgeUnknownHost) => {
    version++;
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version,
        sites: [
          makeSite({
            id: 1,
            domains: ['known.test'],
            origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
          }),
        ],
        ...(unknownHost ? { unknown_host: unknownHost } : {}),
      }),
    );
    expect(outcome).toMatchObject({ applied: true, errors: [], error: '', liveVersion: version });
  };
  const get = (host: string, path = '/', headers: Record<string, string> = BROWSER) =>
    edgeRequest(edge.ports.http, { host, path, headers });
  const lines = () => batches.flatMap((batch) => batch.access);
  const linesOf = (uri: string, host?: string) =>
    lines().filter((line: AccessLogLine) => line.uri === uri && (host === undefined || line.host === host));

  beforeAll(async () => {
    if (!findCrs('/usr/lib/nginx/modules')) {
      throw new Error(
        'ModSecurity and the CRS are needed: apt-get install libnginx-mod-http-modsecurity modsecurity-crs',
      );
    }
    edge = await createEdge();
    origin = await startOrigin('origin');
    stopShipping = await shipLogs(edge, batches);
  });
  afterAll(async () => {
    await stopShipping();
    await edge?.close();
    await origin?.close();
  });

  describe('by default (a master that sends no setting): a page, no WAF', () => {
    beforeAll(() => apply());

    it('answers an unknown name and an IP literal with a 404 page in the visitor language', async () => {
      const unknown = await get('nobody.test', '/unknown-name');
      expect(unknown.status).toBe(404);
      expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(unknown.headers['cache-control']).toBe('no-store');
      expect(unknown.body).toContain('No site here');
      const literal = await get('127.0.0.1', '/ip-literal');
      expect(literal.status).toBe(404);
      const chinese = await get('nobody.test', '/', { ...BROWSER, 'accept-language': 'zh-CN,zh;q=0.9' });
      expect(chinese.body).toContain('此处没有站点');
      expect(origin.requests).toEqual([]);
    });

    it('answers HTTP/1.0 without a Host with a 400 page', async () => {
      const answer = await rawRequest(edge.ports.http, 'GET /no-host HTTP/1.0\r\nUser-Agent: test\r\n\r\n');
      expect(answer).toMatchObject({ status: 400 });
      expect(answer?.body).toContain('did not name a site');
    });

    it('answers a Host that cannot name a site with a 400 page, as one without a Host', async () => {
      // The CRS corpus's 920274-1 sends `Host: localhost%1F`: percent signs are not in a name.
      const percent = await get('known.test%1F', '/bad-host');
      expect(percent.status).toBe(400);
      expect(percent.body).toContain('not a valid site name');
      const chinese = await get('nobody%00.test', '/', { ...BROWSER, 'accept-language': 'zh-CN' });
      expect(chinese.status).toBe(400);
      expect(chinese.body).toContain('不是有效的站点名称');
      // A control character itself never gets this far: nginx refuses the header line.
      const control = await rawRequest(edge.ports.http, 'GET /control HTTP/1.1\r\nHost: known\x1f.test\r\n\r\n');
      expect(control).toMatchObject({ status: 400 });
      // Names with hyphens, underscores, a port or an IPv6 literal are still names: no site, 404.
      expect((await get('no-site_here.test:8080', '/named')).status).toBe(404);
      expect((await rawRequest(edge.ports.http, 'GET /v6 HTTP/1.0\r\nHost: [::1]:80\r\n\r\n'))?.status).toBe(404);
      expect(origin.requests).toEqual([]);
    });

    it('serves known sites as before', async () => {
      const known = await get('known.test', '/hello');
      expect(known.status).toBe(200);
      expect(JSON.parse(known.body)).toMatchObject({ origin: 'origin', host: 'known.test', url: '/hello' });
    });

    it('logs them at node level (site 0) for shipping, and known sites under their id', async () => {
      await eventually(async () => {
        expect(linesOf('/unknown-name')).toEqual([
          expect.objectContaining({ site_id: 0, host: 'nobody.test', status: 404, block_reason: '' }),
        ]);
        expect(linesOf('/ip-literal')).toEqual([expect.objectContaining({ site_id: 0, host: '127.0.0.1' })]);
        expect(linesOf('/no-host')).toEqual([expect.objectContaining({ site_id: 0, status: 400 })]);
        expect(linesOf('/hello')).toEqual([expect.objectContaining({ site_id: 1, status: 200 })]);
      });
    });
  });

  describe('with the WAF defaults on (block)', () => {
    beforeAll(() => apply({ action: 'page', waf: { mode: 'block', paranoia: 1, exclusions: [] } }));

    it('blocks an SQL injection on an unknown name or an IP literal with the WAF page', async () => {
      const named = await get('nobody.test', SQLI);
      expect(named.status).toBe(403);
      expect(named.body).toContain('Access denied');
      expect((await get('127.0.0.1', `${SQLI}&literal=1`)).status).toBe(403);
      expect((await get('nobody.test', '/clean')).status).toBe(404);
      // Known sites keep their own WAF setting (off here).
      expect((await get('known.test', SQLI)).status).toBe(200);
    });

    it('inspects a request whose Host cannot name a site before answering it 400', async () => {
      expect((await get('nobody.test%1F', `${SQLI}&bad-host=1`)).status).toBe(403);
      expect((await get('nobody.test%1F', '/clean-bad-host')).status).toBe(400);
    });

    it('blocks an SQL injection sent over HTTP/1.0 without a Host', async () => {
      const answer = await rawRequest(
        edge.ports.http,
        `GET /scanner${SQLI.slice(6)} HTTP/1.0\r\nUser-Agent: x\r\n\r\n`,
      );
      expect(answer).toMatchObject({ status: 403 });
    });

    it('runs the missing-Host (920280) and numeric-Host (920350) rules; alone they stay under the threshold', async () => {
      expect(await rawRequest(edge.ports.http, 'GET /missing-host HTTP/1.0\r\nUser-Agent: x\r\n\r\n')).toMatchObject({
        status: 400,
      });
      expect((await get('127.0.0.1', '/numeric-host')).status).toBe(404);
      await eventually(async () => {
        const audit = (await readFile(edge.paths.wafAuditLog, 'utf8')).split('\n');
        const entry = (uri: string) => audit.find((line) => line.includes(`"uri":"${uri}"`));
        expect(entry('/missing-host')).toMatch(/"unique_id":"w\d+\.0\.[0-9a-f]+"/);
        expect(entry('/missing-host')).toContain('"ruleId":"920280"');
        expect(entry('/numeric-host')).toMatch(/"unique_id":"w\d+\.0\.[0-9a-f]+"/);
        expect(entry('/numeric-host')).toContain('"ruleId":"920350"');
      });
    });

    it('ships the hits to the block log at node level', async () => {
      await eventually(async () => {
        expect(linesOf(SQLI, 'nobody.test')).toEqual([
          expect.objectContaining({
            site_id: 0,
            host: 'nobody.test',
            status: 403,
            block_reason: expect.stringMatching(/^kind=waf;action=block;detail=rules [0-9,]*942100/),
          }),
        ]);
        expect(linesOf(`${SQLI}&literal=1`)).toEqual([
          expect.objectContaining({ site_id: 0, host: '127.0.0.1', block_reason: expect.stringMatching(/920350/) }),
        ]);
        expect(linesOf(`/scanner${SQLI.slice(6)}`)).toEqual([
          expect.objectContaining({
            site_id: 0,
            status: 403,
            block_reason: expect.stringMatching(/^kind=waf;action=block;detail=rules [0-9,]*920280/),
          }),
        ]);
        // Under the threshold: counted at node level, no block log row.
        expect(linesOf('/numeric-host')).toEqual([expect.objectContaining({ site_id: 0, block_reason: '' })]);
        expect(linesOf('/clean')).toEqual([expect.objectContaining({ site_id: 0, status: 404, block_reason: '' })]);
        expect(linesOf(SQLI, 'known.test')).toEqual([expect.objectContaining({ site_id: 1, block_reason: '' })]);
      });
    });
  });

  describe('with the close option', () => {
    beforeAll(() => apply({ action: 'close', waf: { mode: 'block', paranoia: 1, exclusions: [] } }));

    it('closes the connection without an answer (nginx 444), also without a Host', async () => {
      await expect(get('nobody.test', '/closed')).rejects.toThrow();
      await expect(get('127.0.0.1', '/closed')).rejects.toThrow();
      expect(await rawRequest(edge.ports.http, 'GET /closed HTTP/1.0\r\n\r\n')).toBeNull();
      expect((await get('known.test', '/still')).status).toBe(200);
    });

    it('still logs them at node level', async () => {
      await eventually(async () => {
        expect(linesOf('/closed')).toHaveLength(3);
        expect(linesOf('/closed').every((line) => line.site_id === 0 && line.status === 444)).toBe(true);
      });
    });
  });
});
