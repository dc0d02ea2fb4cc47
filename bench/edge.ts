// Edge figures, each against a baseline measured in the same run:
//  1. requests/s and CPU a request through the Rampart edge (one site, cache off, no protection) vs
//     a hand-written plain nginx proxy to the same origin, same worker count (1), same upstream
//     keepalive, the workers pinned (bench/edge-proxy.ts);
//  2. cache HITs through the edge, for a site without protection and one with ACL and CC rules, vs
//     plain nginx serving the same file from disk (bench/edge-cache.ts);
//  3. render + reload (nginx parses the tree; a separate nginx -t only before a start) + proof, and nginx memory, at 1k and 10k sites;
//  4. API change → served by the edge (real master, agent process, nginx), p50/p95 over changes,
//     vs one API round trip;
//  5. log shipping: lines/s from the nginx log to stored rows vs a raw bulk insert.
// Usage: node bench/edge.ts   (needs wrk and Debian's nginx with the Rampart modules)
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import { freePort } from '../apps/agent/test/support/ports.ts';
import { cacheHitFigures } from './edge-cache.ts';
import { edgeLoop } from './edge-loop.ts';
import { proxyFigureLine, proxyFigures } from './edge-proxy.ts';
import { nginxMemoryMb, startPlainNginx } from './nginx-process.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const report: string[] = [
  `date: ${new Date().toISOString()}  node ${process.version}  wrk -t1 -c32, ${SECONDS} s a run, ${ROUNDS} alternating rounds, medians`,
];

// The origin: a plain nginx answering a short body.
const originPorts = { a: await freePort(), b: await freePort() };
const origin = startPlainNginx(
  'origin',
  `    access_log off;
    server { listen 127.0.0.1:${originPorts.a}; location / { return 200 "origin-a\\n"; } }
    server { listen 127.0.0.1:${originPorts.b}; location / { return 200 "origin-b\\n"; } }`,
);

report.push(proxyFigureLine(await proxyFigures(SECONDS, ROUNDS)));

const edge = await createEdge({ proveTimeoutMs: 120_000 });
try {
  const site = (id: number, domain: string, extra: Partial<Parameters<typeof makeSite>[0]> = {}) =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: originPorts.a, weight: 1, backup: false }],
      ...extra,
    });
  const outcome = await edge.applier.apply(
    edge.snapshot({
      version: 1,
      sites: [site(1, 'bench.test')],
    }),
  );
  if (!outcome.applied) throw new Error(`edge did not apply: ${outcome.error}`);
  // Render + test + reload + proof at 1k and 10k sites.
  let version = 1;
  for (const count of [1000, 10000]) {
    const sites = Array.from({ length: count }, (_, i) => site(100 + i, `s${i}.scale.test`));
    version++;
    let started = performance.now();
    const full = await edge.applier.apply(edge.snapshot({ version, sites }));
    if (!full.applied) throw new Error(`${count} sites did not apply: ${full.error}`);
    const fullMs = performance.now() - started;
    // One site changes: the whole tree is rendered, tested and reloaded again.
    version++;
    const changed = sites.map((entry, i) => (i === 0 ? { ...entry, gzip: !entry.gzip } : entry));
    started = performance.now();
    const one = await edge.applier.apply(edge.snapshot({ version, sites: changed }));
    if (!one.applied) throw new Error(`${count} sites did not apply a change: ${one.error}`);
    report.push(
      `${count} sites: render + reload + proof ${fullMs.toFixed(0)} ms from the smaller config, ${(performance.now() - started).toFixed(0)} ms for a one-site change; nginx memory (PSS, master + children) ${nginxMemoryMb(edge.paths.pidFile).toFixed(0)} MB`,
    );
  }
} finally {
  await edge.close();
}

report.push(...(await cacheHitFigures(SECONDS, ROUNDS)));
report.push(...(await edgeLoop(originPorts)));
origin.stop();
console.log(report.join('\n'));
