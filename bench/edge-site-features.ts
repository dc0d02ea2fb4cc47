// What a site feature costs a request, counted under callgrind (bench/callgrind.ts) instead of

// timed: one edge serves the same site twice, without the feature and with it, and each is asked
// for a proxied file (no cache rule) and a cache hit, with the same request headers. The target is
// at most 5 % more instructions than the site without it, on both.
// Usage: node bench/edge-site-features.ts   (BENCH_REQUESTS: requests counted, default 4000;
// BENCH_FEATURE: only the features whose name holds this text)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
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
  },
  {
    name: 'signed URLs, scheme b (/time/md5/path, taken off the path), the same URL again',
    settings: urlAuth('b'),
    url: (path) => [signB(path)],
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
        cache_rules: [{ match: 'prefix', value: '/static/', ttl: 3600, ignore_query: false, honor_origin: false }],
        ...settings,
      });
    // A feature on two origins is measured against the same two origins without it (site 100 + i).
    const baselineOf = (i: number) => (features[i]?.twoOrigins ? 100 + i : 1);
    const baselines = features.flatMap((feature, i) => (feature.twoOrigins ? [site(100 + i, {}, true)] : []));
    const sites = [
      site(1, {}),
      ...features.map((feature, i) => site(i + 2, feature.settings, feature.twoOrigins)),
      ...baselines,
    ];
    const outcome = await edge.applier.apply(edge.snapshot({ version: 2, sites }));
    if (!outcome.applied || outcome.errors.length > 0) {
      throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
    }
    const server = { ...edgeNginxFiles(edge), port: edge.ports.http };
    // Every answer checked, and the cache filled by the edge's own workers, before a copy of its
    // config runs under callgrind (as another user: it must find the cache files there to read).
    const urlsOf = (id: number, path: string) => features[id - 2]?.url?.(path) ?? [path];
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
      costs.push({
        name: feature.name,
        proxied: { without: without.proxied, with: await count(i + 2, PROXIED) },
        cached: { without: without.cached, with: await count(i + 2, CACHED) },
      });
    }
    return costs;
  } finally {
    await edge.close();
    origin.nginx.stop();
    second?.nginx.stop();
  }
}

const line = (kind: string, pair: { without: number; with: number }) => {
  const growth = pair.with / pair.without - 1;
  const verdict = growth <= FEATURE_BUDGET ? 'met' : 'missed';
  return `  ${kind}: ${thousands(pair.with)} against ${thousands(pair.without)} without, ${(growth * 100).toFixed(1)} % (target ≤ ${FEATURE_BUDGET * 100} %: ${verdict})`;
};

if (import.meta.main) {
  console.log(
    `date: ${new Date().toISOString()}  callgrind, user-space instructions of nginx a request, ${COUNTED_REQUESTS} requests counted after a warm-up`,
  );
  for (const cost of await featureCosts()) {
    console.log(cost.name);
    console.log(line('proxied request', cost.proxied));
    console.log(line('cache hit', cost.cached));
  }
}
