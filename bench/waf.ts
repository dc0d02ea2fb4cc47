// WAF figures, each against a baseline measured in the same run (wrk -t1 -c32, alternating rounds,
// medians), for benign requests (`GET /page?id=1` with a browser User-Agent):
//  1. stock: a hand-written nginx proxy with ModSecurity on and the OWASP CRS (paranoia 1) vs the
//     same nginx without it: what ModSecurity and the CRS cost by themselves;
//  2. the edge: a site with the WAF in block mode vs a site with the WAF off on the same edge: what
//     the WAF costs a Rampart site (compare with 1);
//  3. a site without the WAF on an edge where another site has it vs the same site on an edge with
//     no WAF site at all: what the WAF costs everyone else (target: nothing measurable);
//  4. the edge's WAF site (block, static files skipping the engine, the default) vs the stock
//     ModSecurity proxy of 1, on a mix of 80 % static (.png, .css, .js GETs) and 20 % dynamic
//     requests (target: at least 5x), on the dynamic requests alone (target: at least 1.5x), and
//     on the static ones alone. The machine may be shared: beside the rates, each figure gives the
//     nginx workers' CPU time a request (edge and stock, origin excluded) and the ratio of those,
//     which a busy machine disturbs far less than the rates.
// Usage: node bench/waf.ts   (needs wrk, Debian's nginx with the Rampart modules, ModSecurity and the CRS)
import { writeFileSync } from 'node:fs';
import { DEFAULT_SITE_PROTECTION, type SiteProtection } from '@rampart/contracts';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge, type TestEdge } from '../apps/agent/test/support/edge.ts';
import { freePort } from '../apps/agent/test/support/ports.ts';
import { cpuSeconds, workersOf } from './nginx-cpu.ts';
import { startBenchOrigin, startPlainNginx, stockModSecurityConf } from './nginx-process.ts';
import { alternate, median, tempDir, type WrkTarget, wrk, wrkRounds } from './support.ts';

const { seconds: SECONDS, rounds: ROUNDS, header } = wrkRounds();
const report: string[] = [header];

const { port: originPort, nginx: origin } = await startBenchOrigin();

const stockPort = await freePort();
const stockWafPort = await freePort();
const stockDir = tempDir('rampart-bench-waf-rules-');
writeFileSync(
  `${stockDir}/modsecurity.conf`,
  stockModSecurityConf(
    `${stockDir}/audit.log`,
    '/etc/modsecurity/crs/crs-setup.conf',
    '/usr/share/modsecurity-crs/rules',
  ),
);
const proxy = (port: number, waf: boolean) => `
    server {
        listen 127.0.0.1:${port};
        ${waf ? `modsecurity on; modsecurity_rules_file ${stockDir}/modsecurity.conf;` : ''}
        location / { proxy_pass http://stock_origin; proxy_set_header Connection ""; }
    }`;
const stock = startPlainNginx(
  'stock',
  `    access_log off;
    proxy_http_version 1.1;
    upstream stock_origin { server 127.0.0.1:${originPort}; keepalive 64; }${proxy(stockPort, false)}${proxy(stockWafPort, true)}`,
  ['load_module /usr/lib/nginx/modules/ngx_http_modsecurity_module.so;'],
);

const ua = (host: string) => `wrk.headers["Host"] = "${host}"; wrk.headers["User-Agent"] = "Mozilla/5.0 bench"`;

/** Alternating rounds of two targets (a browser User-Agent, the given Host). */
const compare = (a: { url: string; host: string }, b: { url: string; host: string }) =>
  alternate({ url: a.url, lua: ua(a.host) }, { url: b.url, lua: ua(b.host) }, SECONDS, ROUNDS);

const site = (id: number, domain: string, mode: SiteProtection['waf']['mode']) =>
  makeSite({
    id,
    domains: [domain],
    origins: [{ address: '127.0.0.1', port: originPort, weight: 1, backup: false }],
    protection: { ...DEFAULT_SITE_PROTECTION, waf: { mode, paranoia: 1, exclusions: [] } },
  });

async function edgeWith(sites: ReturnType<typeof site>[]): Promise<TestEdge> {
  const edge = await createEdge();
  const outcome = await edge.applier.apply(edge.snapshot({ version: 2, sites }));
  if (!outcome.applied || outcome.errors.length > 0) {
    throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
  }
  return edge;
}

/**
 * Ten requests in turn: eight static files (.png, .css, .js, no query string) and two dynamic
 * requests; each path is requested as often on both targets.
 */
const MIX_PATHS = [
  '/img/logo.png',
  '/css/site.css',
  '/js/app.js',
  '/page?id=1',
  '/img/photo-1.png',
  '/css/theme.css',
  '/js/vendor.js',
  '/img/icon.png',
  '/search?q=shoes',
  '/js/chunk-3.js',
];

/** wrk Lua that sends `paths` in turn with the given Host and a browser User-Agent. */
const mixLua = (host: string, paths: readonly string[]) =>
  [
    ua(host),
    `local paths = { ${paths.map((path) => JSON.stringify(path)).join(', ')} }`,
    'local i = 0',
    'request = function()',
    '  i = i % #paths + 1',
    '  return wrk.format(nil, paths[i])',
    'end',
  ].join('\n');

/** Alternating rounds of the edge and stock, with each one's nginx worker CPU time a request. */
function compareWithCpu(edgeTarget: WrkTarget, stockTarget: WrkTarget, workers: { edge: number[]; stock: number[] }) {
  const runs = { a: [] as number[], b: [] as number[], aP99: [] as number[], bP99: [] as number[] };
  const cpu = { a: [] as number[], b: [] as number[] };
  const run = (target: WrkTarget, pids: number[], rates: number[], p99s: number[], cpus: number[]) => {
    const before = cpuSeconds(pids);
    const result = wrk(target.url, { seconds: SECONDS, connections: 32, lua: target.lua });
    cpus.push(((cpuSeconds(pids) - before) * 1e6) / result.requests);
    rates.push(result.requestsPerSecond);
    p99s.push(result.p99Ms);
  };
  for (let round = 0; round < ROUNDS; round++) {
    run(edgeTarget, workers.edge, runs.a, runs.aP99, cpu.a);
    run(stockTarget, workers.stock, runs.b, runs.bP99, cpu.b);
  }
  return {
    a: median(runs.a),
    b: median(runs.b),
    aP99: median(runs.aP99),
    bP99: median(runs.bP99),
    aCpu: median(cpu.a),
    bCpu: median(cpu.b),
  };
}

const ratioLine = (label: string, r: ReturnType<typeof compareWithCpu>, target: number) =>
  `${label}: edge WAF site ${r.a.toFixed(0)} req/s, p99 ${r.aP99.toFixed(2)} ms, ${r.aCpu.toFixed(0)} µs CPU a request; stock ModSecurity ${r.b.toFixed(0)} req/s, p99 ${r.bP99.toFixed(2)} ms, ${r.bCpu.toFixed(0)} µs CPU a request; ${(r.a / r.b).toFixed(2)}x by rate, ${(r.bCpu / r.aCpu).toFixed(2)}x by CPU a request (target at least ${target}x)`;

const line = (label: string, r: ReturnType<typeof compare>, names: [string, string]) =>
  `${label}: ${names[0]} ${r.a.toFixed(0)} req/s, p99 ${r.aP99.toFixed(2)} ms; ${names[1]} ${r.b.toFixed(0)} req/s, p99 ${r.bP99.toFixed(2)} ms; ratio ${(r.a / r.b).toFixed(3)}, p99 added ${(r.aP99 - r.bP99).toFixed(2)} ms`;

const withWaf = await edgeWith([site(1, 'off.test', 'off'), site(2, 'waf.test', 'block')]);
const withoutWaf = await edgeWith([site(1, 'off.test', 'off')]);
try {
  const path = '/page?id=1';
  const stockRun = compare(
    { url: `http://127.0.0.1:${stockWafPort}${path}`, host: 'stock.test' },
    { url: `http://127.0.0.1:${stockPort}${path}`, host: 'stock.test' },
  );
  report.push(line('stock nginx + ModSecurity + CRS vs stock nginx', stockRun, ['with', 'without']));
  const edgeUrl = `http://127.0.0.1:${withWaf.ports.http}${path}`;
  const edgeRun = compare({ url: edgeUrl, host: 'waf.test' }, { url: edgeUrl, host: 'off.test' });
  report.push(line('edge site with the WAF (block, paranoia 1) vs WAF off', edgeRun, ['waf', 'off']));
  const others = compare(
    { url: edgeUrl, host: 'off.test' },
    { url: `http://127.0.0.1:${withoutWaf.ports.http}${path}`, host: 'off.test' },
  );
  report.push(line('site without the WAF, on an edge with a WAF site vs an edge without', others, ['with', 'without']));
  report.push(
    `the edge keeps ${((edgeRun.a / edgeRun.b / (stockRun.a / stockRun.b)) * 100).toFixed(1)} % of stock ModSecurity's relative throughput`,
  );
  const stockUrl = `http://127.0.0.1:${stockWafPort}/`;
  const workers = { edge: workersOf(withWaf.paths.pidFile), stock: workersOf(stock.dir) };
  const mixed = compareWithCpu(
    { url: edgeUrl, lua: mixLua('waf.test', MIX_PATHS) },
    { url: stockUrl, lua: mixLua('stock.test', MIX_PATHS) },
    workers,
  );
  report.push(ratioLine('80 % static / 20 % dynamic', mixed, 5));
  const dynamicPaths = MIX_PATHS.filter((path) => path.includes('?'));
  const dynamic = compareWithCpu(
    { url: edgeUrl, lua: mixLua('waf.test', dynamicPaths) },
    { url: stockUrl, lua: mixLua('stock.test', dynamicPaths) },
    workers,
  );
  report.push(ratioLine('dynamic only', dynamic, 1.5));
  const staticPaths = MIX_PATHS.filter((path) => !path.includes('?'));
  const staticOnly = compareWithCpu(
    { url: edgeUrl, lua: mixLua('waf.test', staticPaths) },
    { url: stockUrl, lua: mixLua('stock.test', staticPaths) },
    workers,
  );
  report.push(ratioLine('static only (what the skip itself gives)', staticOnly, 5));
} finally {
  await withWaf.close();
  await withoutWaf.close();
  origin.stop();
  stock.stop();
}
console.log(report.join('\n'));
