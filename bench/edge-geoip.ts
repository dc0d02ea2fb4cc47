// What country lookups cost a request, counted under callgrind (bench/callgrind.ts) like
// bench/edge-site-features.ts: one edge serves a site first without a GeoIP database, then with one
// (nginx's geoip2 module looks the client up for the access log's country) and a country ACL entry
// on the site that does not hold for the client, each asked for a proxied file and a cache hit with
// the same headers. The database places the client (127.0.0.1) at the deepest level of its tree
// (a /32 in an IPv6 tree: 128 steps), the most a lookup can take. The target is at most 5 % more
// instructions than without, on both.
// Usage: node bench/edge-geoip.ts   (BENCH_REQUESTS: requests counted, default 4000)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEFAULT_SITE_PROTECTION, type EdgeGeoip, type EdgeProtection, type EdgeSnapshot } from '@rampart/contracts';
import { ensureGeoip } from '../apps/agent/src/geoip/geoip-store.ts';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge, type TestEdge } from '../apps/agent/test/support/edge.ts';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import { writeMmdb } from '../apps/master/src/test/mmdb-writer.ts';
import { COUNTED_REQUESTS, instructionsPerRequest, thousands } from './callgrind.ts';
import { FEATURE_BUDGET } from './edge-site-features.ts';
import { edgeNginxFiles, startBenchOrigin } from './nginx-process.ts';

const HEADERS = { 'user-agent': 'Mozilla/5.0 bench', accept: 'image/*', referer: 'https://www.example.test/gallery' };
const PROXIED = '/p/photo.png';
const CACHED = '/static/photo.png';

const database = writeMmdb([
  { cidr: '127.0.0.0/8', data: { country_code: 'CN' } },
  { cidr: '127.0.0.1/32', data: { country_code: 'US' } },
]);
const geoip: EdgeGeoip = { sha256: createHash('sha256').update(database).digest('hex'), size: database.length };

/** One ACL entry (on the sites that measure one) that is checked on every request and never holds for the client. */
const aclOf = (condition: EdgeProtection['acls'][number]['entries'][number]['condition']): EdgeProtection => ({
  rule_groups: [],
  acls: [3, 4].map((site_id) => ({ site_id, entries: [{ action: 'deny' as const, condition }] })),
  bans: [],
  unbans: [],
});
/** Three countries the client is not in. */
const countryAcl = aclOf({ field: 'country', op: 'equals', values: ['CN', 'RU', 'KP'], negate: false });
/** The same machinery on the client address: what any ACL costs, for comparison. */
const addressAcl = aclOf({ field: 'ip', op: 'cidr', values: ['203.0.113.0/24'], negate: false });

interface Pair {
  without: number;
  with: number;
}

export interface GeoipCost {
  /** The database alone: the lookup the access log's country makes. */
  lookup: { proxied: Pair; cached: Pair };
  /** The database and an ACL entry on the client address (what any ACL costs). */
  addressAcl: { proxied: Pair; cached: Pair };
  /** The database and the country ACL entry. */
  acl: { proxied: Pair; cached: Pair };
}

/**
 * Site `id` (host s{id}.bench.test) counted under `snapshot`. The edge itself answers only before
 * the first count (`warm`): a copy under callgrind runs as another user, and a cache file it writes
 * is closed to the edge's workers.
 */
async function measure(edge: TestEdge, snapshot: EdgeSnapshot, id: number, warm: number[] = []) {
  const host = `s${id}.bench.test`;
  const outcome = await edge.applier.apply(snapshot);
  if (!outcome.applied || outcome.errors.length > 0) {
    throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
  }
  for (const host of warm.map((each) => `s${each}.bench.test`)) await check(edge, host);
  if (id === 0) return { proxied: 0, cached: 0 };
  const server = { ...edgeNginxFiles(edge), port: edge.ports.http };
  const count = async (path: string) =>
    (await instructionsPerRequest(server, { host, paths: [path], headers: HEADERS })).perRequest;
  return { proxied: await count(PROXIED), cached: await count(CACHED) };
}

/** The site answers both paths, the second from the cache. */
async function check(edge: TestEdge, host: string) {
  for (const path of [PROXIED, CACHED, CACHED]) {
    const answer = await edgeRequest(edge.ports.http, { host, path, headers: HEADERS });
    if (answer.status !== 200) {
      const log = readFileSync(edge.paths.errorLog, 'utf8').split('\n').slice(-5).join('\n');
      throw new Error(`${host}${path}: ${answer.status}\n${log}`);
    }
  }
}

export async function geoipCost(): Promise<GeoipCost> {
  const origin = await startBenchOrigin();
  const edge = await createEdge({ proveTimeoutMs: 60_000, waf: false });
  try {
    const site = (id: number) =>
      makeSite({
        id,
        domains: [`s${id}.bench.test`],
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        gzip: true,
        cache_rules: [{ match: 'prefix', value: '/static/', ttl: 3600, ignore_query: false, honor_origin: false }],
        protection: DEFAULT_SITE_PROTECTION,
      });
    const sites = [1, 2, 3, 4].map(site);
    // Every site's cache file made by the edge's own workers before a copy of its config runs under
    // callgrind as another user (directories that copy made would be closed to the workers).
    await measure(edge, edge.snapshot({ version: 1, sites }), 0, [1, 2, 3, 4]);
    const without = await measure(edge, edge.snapshot({ version: 2, sites }), 1);
    await ensureGeoip(edge.dataDir, geoip, async () => database);
    const lookup = await measure(edge, { ...edge.snapshot({ version: 3, sites }), geoip }, 2);
    const address = await measure(edge, { ...edge.snapshot({ version: 4, sites, protection: addressAcl }), geoip }, 3);
    const acl = await measure(edge, { ...edge.snapshot({ version: 5, sites, protection: countryAcl }), geoip }, 4);
    const against = (measured: typeof without) => ({
      proxied: { without: without.proxied, with: measured.proxied },
      cached: { without: without.cached, with: measured.cached },
    });
    return { lookup: against(lookup), addressAcl: against(address), acl: against(acl) };
  } finally {
    await edge.close();
    origin.nginx.stop();
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
  const cost = await geoipCost();
  console.log('GeoIP database only (the access log’s country)');
  console.log(line('proxied request', cost.lookup.proxied));
  console.log(line('cache hit', cost.lookup.cached));
  console.log('GeoIP database and an ACL entry on the client address (one range, not the client’s)');
  console.log(line('proxied request', cost.addressAcl.proxied));
  console.log(line('cache hit', cost.addressAcl.cached));
  console.log('GeoIP database and a country ACL entry (3 countries, not the client’s)');
  console.log(line('proxied request', cost.acl.proxied));
  console.log(line('cache hit', cost.acl.cached));
}
