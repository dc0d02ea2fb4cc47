// The performance gate: counts that do not change with the machine's load, each against a limit.
//  - Instructions nginx spends on a request, under callgrind (bench/callgrind.ts): a proxied
//    request, a proxied request of a site with protection (an ACL of 1,000 CIDRs and 5 CC rules it
//    passes), a cache hit without and with protection, a WAF-inspected dynamic request and a static
//    request on a WAF site, an HTTPS request on a kept-alive connection and over HTTP/2 (the
//    certificate chosen by SNI in Lua), and a new connection with its full TLS 1.3 handshake
//    (bench/tls-instructions.ts). Each may grow by at most 10 % over bench/perf-baseline.json.
//  - The dashboard's gzip JavaScript of the login route and of the shell with its first page, each
//    within its budget (bench/dashboard-size.ts).
// A baseline is raised on purpose only, in a commit of its own that says why:
//   PERF_UPDATE=1 node bench/perf-check.ts   (then edit the reason in bench/perf-baseline.json)
// Usage: npm run perf:check   (builds the dashboard and the edge's nginx module first; needs valgrind,
//   h2load, nginx, nginx-dev, chromium)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SITE_PROTECTION } from '@rampart/contracts';
import { findFastPathModule } from '../apps/agent/src/apply/fast-path-module.ts';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { NGINX_BINARY } from '../apps/agent/test/support/edge.ts';
import { startBenchEdge } from './bench-edge.ts';
import { instructionsPerRequest, type RequestLoad, thousands } from './callgrind.ts';
import { startCacheBenchServers } from './edge-cache.ts';
import { BROWSER_HEADERS } from './edge-cache-instructions.ts';
import { PROXY_HOST, startProxyBenchServers } from './edge-proxy.ts';
import { startTlsServers } from './edge-tls.ts';
import { edgeNginxFiles } from './nginx-process.ts';
import { protectionLoad, startProtectionEdge } from './protection-instructions.ts';
import { ROOT } from './support.ts';
import { HANDSHAKES, HTTP2_REQUESTS, HTTPS_KEPT_ALIVE, handshakeLoad } from './tls-instructions.ts';

const BASELINE_FILE = join(ROOT, 'bench/perf-baseline.json');
/** How much a count may grow over its baseline before the check fails. */
export const ALLOWED_GROWTH = 0.1;

export const GATED = [
  'proxy',
  'protectedRequest',
  'cacheHit',
  'cacheHitProtected',
  'wafDynamic',
  'wafStatic',
  'httpsKeptAlive',
  'http2',
  'fullHandshake',
] as const;
export type Gated = (typeof GATED)[number];

const LABELS: Record<Gated, string> = {
  proxy: 'proxied request, cache off, a site with its defaults',
  protectedRequest: 'proxied request, ACL (1,000 CIDRs) + 5 CC rules it passes',
  cacheHit: 'cache hit, 4 KiB, site without protection',
  cacheHitProtected: 'cache hit, 4 KiB, ACL (1,000 CIDRs) + 5 CC rules',
  wafDynamic: 'WAF site (block, CRS paranoia 1), dynamic request',
  wafStatic: "WAF site, static file (skips the engine), a browser's Accept-Encoding",
  httpsKeptAlive: 'HTTPS on a kept-alive connection, ECDSA P-256, TLS 1.3, proxied',
  http2: 'HTTP/2 over TLS 1.3, ECDSA P-256, ten streams a connection, proxied',
  fullHandshake: 'a new connection: full TLS 1.3 handshake, ECDSA P-256, one proxied request',
};

/** What a count is divided by. */
const UNIT: Partial<Record<Gated, string>> = { fullHandshake: 'a connection' };

interface Baseline {
  /** Why the numbers are what they are (the commit that last raised one says so too). */
  reason: string;
  /** Instructions a request. */
  instructions: Record<Gated, number>;
}

export interface GateLine {
  label: string;
  value: string;
  limit: string;
  ok: boolean;
}

/** A WAF site in block mode on an edge of its own, in front of an origin answering every path. */
const startWafEdge = () =>
  startBenchEdge((origin) => [
    makeSite({
      id: 1,
      domains: ['waf.test'],
      origins: [origin],
      protection: { ...DEFAULT_SITE_PROTECTION, waf: { mode: 'block', paranoia: 1, exclusions: [] } },
    }),
  ]);

/** Counts every gated figure, and the plain nginx baselines beside them (reported, not gated). */
export async function countInstructions(): Promise<{ counts: Record<Gated, number>; plain: Record<string, number> }> {
  const counts = {} as Record<Gated, number>;
  const plain: Record<string, number> = {};
  const proxy = await startProxyBenchServers();
  try {
    const load: RequestLoad = { host: PROXY_HOST, paths: ['/'] };
    counts.proxy = (await instructionsPerRequest(proxy.edge, load)).perRequest;
    plain['plain nginx proxy'] = (await instructionsPerRequest(proxy.plain, load)).perRequest;
  } finally {
    await proxy.close();
  }
  const guarded = await startProtectionEdge();
  try {
    counts.protectedRequest = (await instructionsPerRequest(guarded.server, protectionLoad('on.test'))).perRequest;
  } finally {
    await guarded.close();
  }
  const cache = await startCacheBenchServers();
  try {
    const count = async (target: 'open' | 'guarded' | 'disk') => {
      const { nginx, host, url } = cache.targets[target];
      return (await instructionsPerRequest(nginx, { host, paths: [new URL(url).pathname], headers: BROWSER_HEADERS }))
        .perRequest;
    };
    counts.cacheHit = await count('open');
    counts.cacheHitProtected = await count('guarded');
    plain['plain nginx, the file from disk'] = await count('disk');
  } finally {
    await cache.close();
  }
  const waf = await startWafEdge();
  try {
    const headers = { 'user-agent': 'Mozilla/5.0 bench' };
    // ModSecurity runs a few hundred rules on a dynamic request: fewer requests give the same count.
    counts.wafDynamic = (
      await instructionsPerRequest(
        waf.server,
        { host: 'waf.test', paths: ['/page?id=1', '/search?q=shoes'], headers },
        {
          requests: 600,
        },
      )
    ).perRequest;
    // With a browser's Accept-Encoding: a site without gzip routed by Lua once paid 9,000 more
    // instructions for it (the header taken off the request, the twin location), unseen here.
    counts.wafStatic = (
      await instructionsPerRequest(waf.server, {
        host: 'waf.test',
        paths: ['/img/logo.png', '/css/site.css', '/js/app.js'],
        headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' },
      })
    ).perRequest;
  } finally {
    await waf.close();
  }
  const tls = await startTlsServers();
  try {
    const counted = [
      ['httpsKeptAlive', 'HTTPS kept-alive', HTTPS_KEPT_ALIVE],
      ['http2', 'HTTP/2', HTTP2_REQUESTS],
    ] as const;
    for (const [name, label, each] of counted) {
      counts[name] = (
        await instructionsPerRequest({ ...edgeNginxFiles(tls.edge), port: tls.edge.ports.https }, each)
      ).perRequest;
      plain[`plain nginx, ${label}`] = (
        await instructionsPerRequest({ ...tls.plainFiles, port: tls.plainEcPort }, each)
      ).perRequest;
    }
    // The handshake rows of the report swing by a tenth from run to run; their count does not.
    const handshake = handshakeLoad(HANDSHAKES[0]!);
    counts.fullHandshake = (
      await instructionsPerRequest({ ...edgeNginxFiles(tls.edge), port: tls.edge.ports.https }, handshake)
    ).perRequest;
    plain['plain nginx, a full handshake'] = (
      await instructionsPerRequest({ ...tls.plainFiles, port: tls.plainEcPort }, handshake)
    ).perRequest;
  } finally {
    await tls.close();
  }
  return { counts, plain };
}

export function readBaseline(): Baseline {
  return JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline;
}

export function instructionGate(counts: Record<Gated, number>, baseline: Baseline): GateLine[] {
  return GATED.map((name) => {
    const base = baseline.instructions[name];
    const limit = base * (1 + ALLOWED_GROWTH);
    // A count well under its baseline is a gain the gate would give back unseen: say so.
    const gain = counts[name] < base * (1 - ALLOWED_GROWTH) ? '; lower the baseline to keep this gain' : '';
    return {
      label: `${LABELS[name]}: instructions ${UNIT[name] ?? 'a request'}`,
      value: thousands(counts[name]),
      limit: `≤ ${thousands(limit)} (baseline ${thousands(base)} + ${ALLOWED_GROWTH * 100} %${gain})`,
      ok: counts[name] <= limit,
    };
  });
}

async function dashboardGate(): Promise<GateLine[]> {
  const { routeBudgets } = await import('./dashboard-size.ts');
  return (await routeBudgets()).map((route) => {
    // The login route's budget is all it loads; the console's is its first screen: its chart and
    // tables load after the first paint, from chunks of their own (issue 33).
    const [gzipKb, files, what] =
      route.route === 'login'
        ? [route.gzipKb, route.files, 'gzip JavaScript']
        : [
            route.firstScreen.gzipKb,
            route.firstScreen.files,
            `gzip JavaScript of the first screen (${route.gzipKb.toFixed(1)} kB in all, with what loads after the first paint)`,
          ];
    return {
      label: `dashboard, ${route.route}: ${what}`,
      value: `${gzipKb.toFixed(1)} kB in ${files} files`,
      limit: `≤ ${route.budgetKb} kB`,
      ok: gzipKb <= route.budgetKb,
    };
  });
}

if (import.meta.main) {
  // The baselines count the edge with its nginx module: without it the proxied request is past its limit.
  if (findFastPathModule(NGINX_BINARY) === null) {
    console.error(
      "perf:check: the edge's nginx module is not built for this nginx: npm run build:nginx-module (needs nginx-dev)",
    );
    process.exit(1);
  }
  const { counts, plain } = await countInstructions();
  if (process.env.PERF_UPDATE === '1') {
    const rounded = Object.fromEntries(GATED.map((name) => [name, Math.round(counts[name])])) as Record<Gated, number>;
    const reason = readBaseline().reason;
    writeFileSync(BASELINE_FILE, `${JSON.stringify({ reason, instructions: rounded }, null, 2)}\n`);
    console.log(`wrote ${BASELINE_FILE}: say why in its reason and commit it on its own`);
  }
  const lines = [...instructionGate(counts, readBaseline()), ...(await dashboardGate())];
  console.log(`date: ${new Date().toISOString()}  callgrind (user-space instructions of nginx) and bundle sizes`);
  for (const [label, value] of Object.entries(plain))
    console.log(`  reference, ${label}: ${thousands(value)} instructions`);
  for (const line of lines) console.log(`${line.ok ? 'ok  ' : 'FAIL'} ${line.label}: ${line.value} (${line.limit})`);
  const failed = lines.filter((line) => !line.ok);
  if (failed.length > 0) {
    console.error(`perf:check failed: ${failed.length} figure(s) over their limit`);
    process.exit(1);
  }
}
