import { type EdgeJob, EdgeJob as EdgeJobSchema, type EdgeSite, type JobResultBody } from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { localRequest } from '../local-http.ts';
import { PURGE_KEY_HEADER } from '../render/nginx-conf.ts';
import { purgeByPrefix } from './cache-walk.ts';

const checkJob = Compile(EdgeJobSchema);

export interface JobContext {
  controlPort: number;
  cacheDir: string;
  /** Where this node's nginx listens (127.0.0.1 when it listens on every address). */
  edgeAddress: string;
  httpPort: number;
  httpsPort: number;
  sites: ReadonlyMap<number, EdgeSite>;
}

/** The cache key nginx uses for a URL of a site (see the proxy_cache_key of cache rules). */
export function cacheKey(siteId: number, url: URL, withQuery: boolean): string {
  return `${siteId}|${url.hostname}${url.pathname}${withQuery ? url.search : ''}`;
}

/** Whether `hostname` is one of the site's domains (a `*.` wildcard matches any depth, as in nginx). */
export function siteServes(site: EdgeSite, hostname: string): boolean {
  return site.domains.some((domain) =>
    domain.startsWith('*.')
      ? hostname.endsWith(domain.slice(1)) && hostname.length > domain.length - 1
      : domain === hostname,
  );
}

/** Runs one purge or prefetch job on this node; a URL that fails makes the job fail with its reason. */
export async function runJob(job: EdgeJob, context: JobContext): Promise<JobResultBody> {
  if (!checkJob.Check(job)) return { state: 'failed', error: 'the job does not match the contract' };
  const site = context.sites.get(job.site_id);
  if (!site) return { state: 'failed', error: `site ${job.site_id} is not served by this node` };
  const failures: string[] = [];
  const urls: URL[] = [];
  for (const text of job.urls) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      failures.push(`${text.slice(0, 200)}: not a URL`);
      continue;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !siteServes(site, url.hostname)) {
      failures.push(`${text.slice(0, 200)}: not a URL of site ${site.id}`);
      continue;
    }
    urls.push(url);
  }

  if (job.type === 'purge-dir') {
    await purgeByPrefix(
      context.cacheDir,
      urls.map((url) => cacheKey(site.id, url, false)),
      async (key) => (await purgeKey(key, context)) === 200,
    );
  } else {
    await eachLimited(urls, 8, async (url) => {
      const failure =
        job.type === 'purge-url' ? await purgeUrl(site, url, context) : await prefetch(site, url, context);
      if (failure) failures.push(`${url.href.slice(0, 200)}: ${failure}`);
    });
  }
  return failures.length === 0
    ? { state: 'done', error: '' }
    : { state: 'failed', error: failures.slice(0, 10).join('; ').slice(0, 2000) };
}

async function purgeUrl(site: EdgeSite, url: URL, context: JobContext): Promise<string | null> {
  // A rule that ignores the query caches under the key without it; purge both forms.
  const keys = new Set([cacheKey(site.id, url, true), cacheKey(site.id, url, false)]);
  for (const key of keys) {
    const status = await purgeKey(key, context);
    if (status === null) return 'the control server did not answer';
    if (status !== 200 && status !== 404) return `purge answered ${status}`;
  }
  return null;
}

/** Purges one cache key through the control server: 200 purged, 404 not cached, null no answer. */
async function purgeKey(key: string, context: JobContext): Promise<number | null> {
  const answer = await localRequest({
    port: context.controlPort,
    path: '/purge',
    headers: { [PURGE_KEY_HEADER]: key },
  });
  return answer ? answer.status : null;
}

/** Fetches the URL through this node's own edge so the cache holds it. */
async function prefetch(site: EdgeSite, url: URL, context: JobContext): Promise<string | null> {
  const https = site.https_listen && (url.protocol === 'https:' || site.force_https || !site.http_listen);
  const answer = await localRequest({
    address: context.edgeAddress,
    port: https ? context.httpsPort : context.httpPort,
    path: `${url.pathname}${url.search}`,
    headers: { host: url.hostname, 'user-agent': 'rampart-agent-prefetch', accept: '*/*' },
    ...(https ? { servername: url.hostname } : {}),
    timeoutMs: 30_000,
  });
  if (!answer) return 'the edge did not answer';
  return answer.status >= 400 ? `the edge answered ${answer.status}` : null;
}

async function eachLimited<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
