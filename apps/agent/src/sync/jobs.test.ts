import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/snapshots.ts';
import { cacheKey, runJob, siteServes } from './jobs.ts';

describe('jobs', () => {
  it('matches exact and wildcard domains as nginx does', () => {
    const site = makeSite({ domains: ['a.test', '*.b.test'] });
    expect(siteServes(site, 'a.test')).toBe(true);
    expect(siteServes(site, 'x.a.test')).toBe(false);
    expect(siteServes(site, 'x.b.test')).toBe(true);
    expect(siteServes(site, 'y.x.b.test')).toBe(true);
    expect(siteServes(site, 'b.test')).toBe(false);
    expect(siteServes(site, 'evilb.test')).toBe(false);
  });

  it('builds the cache key of a URL like the rendered proxy_cache_key', () => {
    const url = new URL('https://A.Test:8443/p/a%20b?x=1&y=2');
    expect(cacheKey(5, url, true)).toBe('5|a.test/p/a%20b?x=1&y=2');
    expect(cacheKey(5, url, false)).toBe('5|a.test/p/a%20b');
  });

  it('fails jobs that do not match the contract, for unknown sites or foreign URLs', async () => {
    const context = {
      controlPort: 1,
      cacheDir: '/nonexistent',
      edgeAddress: '127.0.0.1',
      httpPort: 1,
      httpsPort: 1,
      sites: new Map([[1, makeSite({ id: 1, domains: ['a.test'] })]]),
    };
    expect(await runJob({ id: 1, type: 'purge-url', site_id: 1, urls: 'x' } as never, context)).toMatchObject({
      state: 'failed',
    });
    expect(await runJob({ id: 1, type: 'purge-url', site_id: 2, urls: [] }, context)).toEqual({
      state: 'failed',
      error: 'site 2 is not served by this node',
    });
    const foreign = await runJob(
      { id: 1, type: 'purge-dir', site_id: 1, urls: ['http://b.test/', 'ftp://a.test/', 'nope'] },
      context,
    );
    expect(foreign.state).toBe('failed');
    expect(foreign.error).toContain('http://b.test/: not a URL of site 1');
    expect(foreign.error).toContain('nope: not a URL');
  });
});
