// What a site feature costs a request, counted under callgrind (bench/callgrind.ts) instead of

// timed: one edge serves the same site twice, without the feature and with it, and each is asked
// for a proxied file (no cache rule) and a cache hit, with the same request headers. The target is
// at most 5 % more instructions than the site without it, on both.
// Usage: node bench/edge-site-features.ts   (BENCH_REQUESTS: requests counted, default 4000;
// BENCH_FEATURE: only the features whose name holds this text)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  type CacheRule,
  DEFAULT_SITE_HEALTH_CHECK,
  DEFAULT_SITE_HOTLINK,
  DEFAULT_SITE_URL_AUTH,
  type EdgeSite,
  type SiteRedirectRule,
} from '@rampart/contracts';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import { COUNTED_REQUESTS, instructionsPerRequest, thousands } from './callgrind.ts';
import { edgeNginxFiles, startBenchOrigin } from './nginx-process.ts';

/** The budget of a feature over the same site without it. */
export const FEATURE_BUDGET = 0.05;

/** A browser on a page of the site's own domain asking for an image. */
const HEADERS = { 'user-agent': 'Mozilla/5.0 bench', accept: 'image/*', referer: 'https://www.example.test/gallery' };
const PROXIED = '/p/photo.png';
const CACHED = '/static/photo.png';

interface Feature {
  name: string;
  settings: Partial<EdgeSite>;
  /** The paths a client of the site asks for instead of `path`, in turn (signed URLs, say). */
  url?: (path: string) => string[];
  /**
   * The site, and the site without the feature it is measured against, have two origins (a
   * balancer's choice to make, which one origin skips); the plain site has one.
   */
  twoOrigins?: boolean;
  /**
   * The site without the feature is asked for the same URLs (`url`), with these settings of its own
   * (both sites get them): what the feature does to a request, apart from the longer request line
   * nginx parses and logs whatever the site does with it. The plain URL is measured too.
   */
  sameUrls?: Partial<EdgeSite>;
}

const KEY = 'BenchSigningKey0123456789';
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
/** Signed now, good for a year: the bench's requests all pass. */
const SIGNED_AT = Math.floor(Date.now() / 1000);
const urlAuth = (type: 'a' | 'b') => ({
  url_auth: { ...DEFAULT_SITE_URL_AUTH, enabled: true, type, key: KEY, ttl: 31_536_000 },
});
const signA = (path: string) => {
  const signed = `${SIGNED_AT}-r-0`;
  return `${path}?auth_key=${signed}-${md5(`${path}-${signed}-${KEY}`)}`;
};
const signB = (path: string) => {
  const stamp = new Date(SIGNED_AT * 1000).toISOString().replace(/[-T:]/g, '').slice(0, 12);
  return `/${stamp}/${md5(`${KEY}${stamp}${path}`)}${path}`;
};

const cacheRule = (value: string): CacheRule => ({
  match: 'prefix',
  value,
  ttl: 3600,
  ignore_query: false,
  honor_origin: false,
});

const redirect = (match: SiteRedirectRule['match'], value: string, target: string): SiteRedirectRule => ({
  match,
  value,
  action: 'redirect',
  status: 301,
  target,
  keep_query: true,
});

const hosts = (prefix: string) => Array.from({ length: 20 }, (_, i) => `*.${prefix}${i}.example.net`);

export const FEATURES: readonly Feature[] = [
  {
    name: 'hotlink protection (20 allowed and 20 denied hosts, the Referer allowed)',
    settings: {
      hotlink: {
        ...DEFAULT_SITE_HOTLINK,
        enabled: true,
        allow: ['*.example.test', ...hosts('partner').slice(1)],
        deny: hosts('thief'),
        allow_empty: false,
      },
    },
  },
  {
    name: 'signed URLs, scheme a (?auth_key=, taken off the query), the same URL again',
    settings: urlAuth('a'),
    url: (path) => [signA(path)],
    sameUrls: {},
  },
  {
    name: 'signed URLs, scheme b (/time/md5/path, taken off the path), the same URL again',
    settings: urlAuth('b'),
    url: (path) => [signB(path)],
    // The site without signed URLs caches the signed path of the cached file by this first rule;
    // the signed site checks it first too, then finds `/static/` in the path without its signature.
    sameUrls: { cache_rules: [cacheRule(signB(CACHED).slice(0, -CACHED.length + 1)), cacheRule('/static/')] },
  },
  {
    name: 'redirects (10 rules: 5 exact, 3 prefix, 2 expressions; none matches the request)',
    settings: {
      redirects: {
        host: 'off',
        trailing_slash: 'off',
        rules: [
          ...['/old', '/about-us', '/contact.php', '/index.php', '/feed'].map((value) =>
            redirect('exact', value, '/new'),
          ),
          ...['/blog/', '/shop/', '/docs/v1/'].map((value) => redirect('prefix', value, '/archive/$1')),
          redirect('regex', '^/item/([0-9]+)/(\\w+)$', '/p/$2?id=$1'),
          redirect('regex', '^/(?:en|fr)/legacy/(.*)$', '/legacy/$1'),
        ],
      },
    },
  },
  {
    name: 'origin health checks (two origins, both up; against the same two origins without checks)',
    settings: { health_check: { ...DEFAULT_SITE_HEALTH_CHECK, enabled: true, path: '/healthz' } },
    twoOrigins: true,
  },
];

export interface FeatureCost {
  name: string;
  proxied: { without: number; with: number };
  cached: { without: number; with: number };
  /** With `sameUrls`: against the plain site asked for the plain paths. */
  plainUrl?: { proxied: { without: number; with: number }; cached: { without: number; with: number } };
}

export async function featureCosts(only = process.env.BENCH_FEATURE ?? ''): Promise<FeatureCost[]> {
  const features = FEATURES.filter((feature) => feature.name.includes(only));
  const origin = await startBenchOrigin();
  const second = features.some((feature) => feature.twoOrigins) ? await startBenchOrigin() : null;
  const edge = await createEdge({ proveTimeoutMs: 60_000, waf: false });
  try {
    const site = (id: number, settings: Partial<EdgeSite>, two = false) =>
      makeSite({
        id,
        domains: [`s${id}.bench.test`],
        origins: [origin, ...(two && second ? [second] : [])].map(({ port }) => ({
          address: '127.0.0.1',
          port,
          weight: 1,
          backup: false,
        })),
        gzip: true,
        cache_rules: [cacheRule('/static/')],
        ...settings,
      });
    // A feature on two origins, or asked for its own URLs, is measured against a site of its own
    // without it (site 100 + i).
    const ownBaseline = (feature: Feature | undefined) => Boolean(feature?.twoOrigins || feature?.sameUrls);
    const baselineOf = (i: number) => (ownBaseline(features[i]) ? 100 + i : 1);
    const baselines = features.flatMap((feature, i) =>
      ownBaseline(feature) ? [site(100 + i, { ...feature.sameUrls }, feature.twoOrigins)] : [],
    );
    const sites = [
      site(1, {}),
      ...features.map((feature, i) => site(i + 2, { ...feature.sameUrls, ...feature.settings }, feature.twoOrigins)),
      ...baselines,
    ];
    const outcome = await edge.applier.apply(edge.snapshot({ version: 2, sites }));
    if (!outcome.applied || outcome.errors.length > 0) {
      throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
    }
    const server = { ...edgeNginxFiles(edge), port: edge.ports.http };
    // Every answer checked, and the cache filled by the edge's own workers, before a copy of its
    // config runs under callgrind (as another user: it must find the cache files there to read).
    const featureOf = (id: number) =>
      id >= 100 ? features[id - 100]?.sameUrls && features[id - 100] : features[id - 2];
    const urlsOf = (id: number, path: string) => featureOf(id)?.url?.(path) ?? [path];
    for (const id of [1, ...features.map((_, i) => i + 2), ...baselines.map((entry) => entry.id)]) {
      for (const path of [PROXIED, CACHED, CACHED]) {
        const url = urlsOf(id, path)[0] ?? path;
        const answer = await edgeRequest(edge.ports.http, { host: `s${id}.bench.test`, path: url, headers: HEADERS });
        if (answer.status !== 200) {
          const log = readFileSync(edge.paths.errorLog, 'utf8').split('\n').slice(-5).join('\n');
          throw new Error(`s${id}.bench.test${url}: ${answer.status}\n${log}`);
        }
        if (path === CACHED && answer.headers['x-cache-status'] === 'MISS') continue;
        if (path === CACHED && answer.headers['x-cache-status'] !== 'HIT') {
          throw new Error(`s${id}.bench.test${url}: expected a cache hit, got ${answer.headers['x-cache-status']}`);
        }
      }
    }
    const count = async (id: number, path: string) =>
      (
        await instructionsPerRequest(server, {
          host: `s${id}.bench.test`,
          paths: urlsOf(id, path),
          headers: HEADERS,
        })
      ).perRequest;
    const base = { proxied: await count(1, PROXIED), cached: await count(1, CACHED) };
    const costs: FeatureCost[] = [];
    for (const [i, feature] of features.entries()) {
      const without =
        baselineOf(i) === 1
          ? base
          : { proxied: await count(baselineOf(i), PROXIED), cached: await count(baselineOf(i), CACHED) };
      const proxied = { without: without.proxied, with: await count(i + 2, PROXIED) };
      const cached = { without: without.cached, with: await count(i + 2, CACHED) };
      const plainUrl = feature.sameUrls
        ? {
            proxied: { without: base.proxied, with: proxied.with },
            cached: { without: base.cached, with: cached.with },
          }
        : undefined;
      costs.push({ name: feature.name, proxied, cached, ...(plainUrl ? { plainUrl } : {}) });
    }
    return costs;
  } finally {
    await edge.close();
    origin.nginx.stop();
    second?.nginx.stop();
  }
}

const line = (kind: string, pair: { without: number; with: number }, target = true) => {
  const growth = pair.with / pair.without - 1;
  const verdict = growth <= FEATURE_BUDGET ? 'met' : 'missed';
  const judged = target ? ` (target ≤ ${FEATURE_BUDGET * 100} %: ${verdict})` : '';
  return `  ${kind}: ${thousands(pair.with)} against ${thousands(pair.without)} without, ${(growth * 100).toFixed(1)} %${judged}`;
};

if (import.meta.main) {
  console.log(
    `date: ${new Date().toISOString()}  callgrind, user-space instructions of nginx a request, ${COUNTED_REQUESTS} requests counted after a warm-up`,
  );
  for (const cost of await featureCosts()) {
    console.log(cost.name);
    console.log(line('proxied request', cost.proxied));
    console.log(line('cache hit', cost.cached));
    if (cost.plainUrl) {
      console.log('  against the plain site asked for the plain URL (the longer request line parsed and logged too):');
      console.log(line('  proxied request', cost.plainUrl.proxied, false));
      console.log(line('  cache hit', cost.plainUrl.cached, false));
    }
  }
}
