import type { EdgeSite } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JobContext, runJob } from '../src/sync/jobs.ts';
import { makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

describe('cache, purge and prefetch', () => {
  let edge: TestEdge;
  let origin: Origin;
  let site: EdgeSite;
  let jobs: JobContext;
  let nextJob = 1;

  const get = async (path: string, host = 'cache.test') => {
    const answer = await edgeRequest(edge.ports.http, { host, path });
    return { status: answer.status, cache: answer.headers['x-cache-status'], body: answer.body };
  };
  const job = (type: 'purge-url' | 'purge-dir' | 'prefetch', urls: string[]) =>
    runJob({ id: nextJob++, type, site_id: site.id, urls }, jobs);

  beforeAll(async () => {
    edge = await createEdge();
    origin = await startOrigin('origin');
    site = makeSite({
      id: 20,
      domains: ['cache.test'],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      cache_rules: [
        { match: 'prefix', value: '/static/', ttl: 300, ignore_query: true, honor_origin: false },
        { match: 'extension', value: 'css', ttl: 300, ignore_query: false, honor_origin: false },
        { match: 'prefix', value: '/honor/', ttl: 300, ignore_query: false, honor_origin: true },
      ],
    });
    const outcome = await edge.applier.apply(edge.snapshot({ sites: [site] }));
    expect(outcome.error).toBe('');
    jobs = {
      controlPort: edge.ports.control,
      cacheDir: edge.paths.cacheDir,
      edgeAddress: '127.0.0.1',
      httpPort: edge.ports.http,
      httpsPort: edge.ports.https,
      sites: new Map([[site.id, site]]),
    };
  });

  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  it('answers MISS then HIT, and does not cache paths without a rule', async () => {
    expect((await get('/static/a.js')).cache).toBe('MISS');
    expect((await get('/static/a.js')).cache).toBe('HIT');
    expect((await get('/static/a.js?v=2')).cache).toBe('HIT');
    expect((await get('/dynamic')).cache).toBeUndefined();
    expect((await get('/page.css?v=1')).cache).toBe('MISS');
    expect((await get('/page.css?v=2')).cache).toBe('MISS');
    expect((await get('/page.css?v=2')).cache).toBe('HIT');
  });

  it('honours the origin Cache-Control when the rule says so', async () => {
    origin.respond((_req, res) => {
      res.writeHead(200, { 'cache-control': 'no-store' });
      res.end('private');
    });
    try {
      expect((await get('/honor/x')).cache).toBe('MISS');
      expect((await get('/honor/x')).cache).toBe('MISS');
      // The same header does not stop a rule that overrides the origin.
      expect((await get('/static/no-store.js')).cache).toBe('MISS');
      expect((await get('/static/no-store.js')).cache).toBe('HIT');
    } finally {
      origin.respond(null);
    }
  });

  it('purges one URL so the next request is a MISS', async () => {
    await get('/static/purge-me.js');
    expect((await get('/static/purge-me.js')).cache).toBe('HIT');
    expect(await job('purge-url', ['http://cache.test/static/purge-me.js'])).toEqual({ state: 'done', error: '' });
    expect((await get('/static/purge-me.js')).cache).toBe('MISS');
    expect((await get('/static/purge-me.js')).cache).toBe('HIT');
  });

  it('purges a directory prefix and leaves the rest cached', async () => {
    for (const path of ['/static/dir/a.js', '/static/dir/sub/b.js', '/static/other.js']) {
      await get(path);
      expect((await get(path)).cache).toBe('HIT');
    }
    expect(await job('purge-dir', ['https://cache.test/static/dir/'])).toEqual({ state: 'done', error: '' });
    expect((await get('/static/dir/a.js')).cache).toBe('MISS');
    expect((await get('/static/dir/sub/b.js')).cache).toBe('MISS');
    expect((await get('/static/other.js')).cache).toBe('HIT');
  });

  it('prefetch warms the cache', async () => {
    const before = origin.requests.length;
    expect(await job('prefetch', ['http://cache.test/static/warm.js'])).toEqual({ state: 'done', error: '' });
    expect(origin.requests.length).toBe(before + 1);
    expect((await get('/static/warm.js')).cache).toBe('HIT');
  });

  it('fails a job for URLs of another site', async () => {
    const result = await job('purge-url', ['http://elsewhere.test/static/a.js']);
    expect(result.state).toBe('failed');
    expect(result.error).toContain('not a URL of site 20');
  });
});
