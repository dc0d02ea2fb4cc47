import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_EDGE_SETTINGS, DEFAULT_SITE_PROTECTION, type EdgeSettings } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proveLive } from '../src/apply/probe.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';
import { freePort } from './support/ports.ts';

const PAGE_ZH = '<!doctype html><h1>源站暂时不可用</h1>';
const PAGE_EN = '<!doctype html><h1>The origin is resting</h1>';
const MISSING_ZH = '<!doctype html><h1>没有这个网站</h1>';
const MISSING_EN = '<!doctype html><h1>No such site here</h1>';
const BLOCKED_ZH = '<!doctype html><h1>请求已被防火墙拦截</h1>';
const OWN_502 = '<!doctype html><h1>Our shop is being restocked</h1>';
const OWN_WAF = '<!doctype html><h1>Our shop refused that request</h1>';

/** The fleet's settings as the master sends them, one worker and files within this machine's limit. */
function settings(nginx: Partial<EdgeSettings['nginx']> = {}, res: Partial<EdgeSettings['res']> = {}): EdgeSettings {
  return {
    nginx: { ...DEFAULT_EDGE_SETTINGS.nginx, worker_processes: 1, ...nginx },
    res: { ...DEFAULT_EDGE_SETTINGS.res, max_open_files: 1024, ...res },
    error_pages: {
      default_language: 'en-US',
      pages: {
        '502': { 'zh-CN': PAGE_ZH, 'en-US': PAGE_EN },
        '404': { 'zh-CN': MISSING_ZH, 'en-US': MISSING_EN },
        waf: { 'zh-CN': BLOCKED_ZH },
      },
    },
  };
}

describe('edge settings on a real nginx', () => {
  let origin: Origin;
  let edge: TestEdge;
  let deadPort: number;
  const sites = () => [
    makeSite({
      id: 1,
      domains: ['up.test'],
      gzip: true,
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      cache_rules: [{ match: 'prefix', value: '/static/', ttl: 600, ignore_query: false, honor_origin: false }],
    }),
    makeSite({
      id: 2,
      domains: ['down.test'],
      origins: [{ address: '127.0.0.1', port: deadPort, weight: 1, backup: false }],
    }),
    makeSite({
      id: 3,
      domains: ['waf.test'],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      protection: { ...DEFAULT_SITE_PROTECTION, waf: { mode: 'block', paranoia: 1, exclusions: [] } },
    }),
    // Its own pages: a 502 and the WAF's, and a 504 the fleet has no page for.
    makeSite({
      id: 4,
      domains: ['own.test'],
      origins: [{ address: '127.0.0.1', port: deadPort, weight: 1, backup: false }],
      protection: { ...DEFAULT_SITE_PROTECTION, waf: { mode: 'block', paranoia: 1, exclusions: [] } },
      error_pages: { '502': OWN_502, waf: OWN_WAF, '504': '<h1>never sent</h1>' },
    }),
  ];
  const apply = async (version: number, edgeSettings: EdgeSettings) =>
    edge.applier.apply(edge.snapshot({ version, sites: sites(), edge_settings: edgeSettings }));
  const post = (bytes: number) =>
    edgeRequest(edge.ports.http, { host: 'up.test', method: 'POST', body: 'x'.repeat(bytes) });

  beforeAll(async () => {
    origin = await startOrigin('origin');
    // Nothing listens here: the edge answers 502 for this site.
    deadPort = await freePort();
    edge = await createEdge();
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  it('a body larger than client_max_body_size is refused with 413, a smaller one passes', async () => {
    expect(await apply(1, settings({ client_max_body_size_mb: 1 }))).toMatchObject({ applied: true, error: '' });
    expect((await post(2 * 1024 * 1024)).status).toBe(413);
    expect((await post(512 * 1024)).status).toBe(200);

    expect(await apply(2, settings({ client_max_body_size_mb: 4 }))).toMatchObject({ applied: true });
    expect((await post(2 * 1024 * 1024)).status).toBe(200);
  });

  it('the error pages answer in the visitor language, else in the default one', async () => {
    expect(await apply(3, settings())).toMatchObject({ applied: true });
    const down = (language?: string) =>
      edgeRequest(edge.ports.http, {
        host: 'down.test',
        headers: language ? { 'accept-language': language } : {},
      });
    const zh = await down('zh-CN,zh;q=0.9,en;q=0.5');
    expect(zh.status).toBe(502);
    expect(zh.body).toBe(PAGE_ZH);
    expect(zh.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(zh.headers['cache-control']).toBe('no-store');
    expect((await down('en-GB,en;q=0.8')).body).toBe(PAGE_EN);
    expect((await down('fr-FR')).body).toBe(PAGE_EN);
    expect((await down()).body).toBe(PAGE_EN);

    // A name no site serves: the 404 page, answered by the Lua side from the same files.
    const missing = (language: string) =>
      edgeRequest(edge.ports.http, { host: 'nobody.test', headers: { 'accept-language': language } });
    expect(await missing('zh-TW')).toMatchObject({ status: 404, body: MISSING_ZH });
    expect(await missing('en-US')).toMatchObject({ status: 404, body: MISSING_EN });
    // The WAF's page, in the only language it has.
    const blocked = await edgeRequest(edge.ports.http, {
      host: 'waf.test',
      path: `/items?id=${encodeURIComponent("1' OR 1=1--")}`,
      headers: { 'user-agent': 'Mozilla/5.0 (test)', accept: 'text/html', 'accept-language': 'en-US' },
    });
    expect(blocked).toMatchObject({ status: 403, body: BLOCKED_ZH });
    // A site's own pages answer its visitors in every language, in place of the fleet's.
    for (const language of ['zh-CN', 'en-US']) {
      const own = await edgeRequest(edge.ports.http, { host: 'own.test', headers: { 'accept-language': language } });
      expect(own).toMatchObject({ status: 502, body: OWN_502 });
      expect(own.headers['cache-control']).toBe('no-store');
    }
    const ownBlocked = await edgeRequest(edge.ports.http, {
      host: 'own.test',
      path: `/items?id=${encodeURIComponent("1' OR 1=1--")}`,
      headers: { 'user-agent': 'Mozilla/5.0 (test)', accept: 'text/html' },
    });
    expect(ownBlocked).toMatchObject({ status: 403, body: OWN_WAF });
    // A visitor may not fetch a page location directly.
    const direct = await edgeRequest(edge.ports.http, { host: 'up.test', path: '/.rampart-errors/502' });
    expect(direct.status).toBe(404);
  });

  it('gzip follows the fleet switch and its MIME types', async () => {
    const json = async () =>
      (await edgeRequest(edge.ports.http, { host: 'up.test', headers: { 'accept-encoding': 'gzip' } })).headers[
        'content-encoding'
      ];
    expect(await apply(4, settings({ gzip: true, gzip_types: ['application/json'] }))).toMatchObject({ applied: true });
    expect(await json()).toBe('gzip');
    expect(await apply(5, settings({ gzip: true, gzip_types: ['text/css'] }))).toMatchObject({ applied: true });
    expect(await json()).toBeUndefined();
    expect(await apply(6, settings({ gzip: false, gzip_types: ['application/json'] }))).toMatchObject({
      applied: true,
    });
    expect(await json()).toBeUndefined();
  });

  it('a value nginx rejects leaves the previous config serving and says why', async () => {
    expect(await apply(7, settings({ client_max_body_size_mb: 1 }))).toMatchObject({ applied: true });
    const before = await edge.applier.store.proven();
    // Valid by the schema, but nginx cannot create a cache directory there.
    const outcome = await apply(8, settings({ client_max_body_size_mb: 8 }, { cache_path: '/proc/rampart-cache' }));
    expect(outcome.applied).toBe(false);
    expect(outcome.liveVersion).toBe(7);
    expect(outcome.error).toMatch(/^nginx -t failed: .*\/proc\/rampart-cache/);
    // Nothing of version 8 is live: the proven tree is the same, and the old limit still holds.
    expect(await edge.applier.store.proven()).toEqual(before);
    expect(await proveLive(edge.ports.control, before!.token, 2000)).toBe(true);
    expect((await post(2 * 1024 * 1024)).status).toBe(413);
  });

  it('a snapshot whose settings break the schema is refused before nginx sees it', async () => {
    const bad = settings({ gzip_types: ['text/css; gzip_static on'] });
    const outcome = await apply(9, bad);
    expect(outcome).toMatchObject({ applied: false, liveVersion: 7 });
    expect(outcome.error).toMatch(/^snapshot rejected: edge_settings: \/nginx\/gzip_types\/0 must be a MIME type/);
  });

  it('the cache moves to the configured path, and purges by directory follow it across restarts', async () => {
    const moved = join(edge.dataDir, 'moved-cache');
    const outcome = await apply(10, settings({}, { cache_path: moved }));
    expect(outcome, outcome.error).toMatchObject({ applied: true });
    expect(edge.applier.cacheDir).toBe(moved);
    const cached = async () =>
      (await edgeRequest(edge.ports.http, { host: 'up.test', path: '/static/a.css' })).headers['x-cache-status'];
    expect(await cached()).toBe('MISS');
    expect(await cached()).toBe('HIT');
    const files = await readdir(moved, { recursive: true });
    expect(files.some((name) => /^[0-9a-f]\/[0-9a-f]{2}\/[0-9a-f]{32}$/.test(name))).toBe(true);
    // A restarted agent knows where the live config keeps its cache.
    const restarted = edge.newApplier();
    await restarted.restoreLastProven();
    expect(restarted.cacheDir).toBe(moved);
  });
});
