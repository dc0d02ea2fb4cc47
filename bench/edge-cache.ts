// Cache hits against nginx's own speed, in one run: a 4 KiB file cached by the edge for a site
// without protection, and for a site with an ACL of 1,000 CIDR ranges and 5 CC rules on (the rate
// rule counts every hit), each against a hand-written plain nginx serving the same file from disk.
// For reference, the same plain nginx serving it from its own proxy cache. One worker everywhere,
// wrk -t1 -c32; the four alternate for the given rounds and the medians are compared.
// Usage: node bench/edge-cache.ts   (BENCH_SECONDS, BENCH_ROUNDS; also a part of bench/edge.ts)
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import { cpuSeconds, workersOf } from './nginx-cpu.ts';
import { edgeNginxFiles, plainNginxFiles, startPlainNginx } from './nginx-process.ts';
import { blocklistAcl, protection, realisticRules } from './protection-rules.ts';
import { freePort, median, tempDir, wrk, wrkRounds } from './support.ts';

const FILE = '/static/file.bin';

/** One server of the cache-hit figures: the file's URL, the Host it answers for, and its nginx. */
export interface CacheTargetServer {
  url: string;
  host: string;
  /** wrk's script: that Host, and a browser's User-Agent and Accept. */
  lua: string;
  /** The nginx serving it (its config and prefix also start a second instance of it). */
  nginx: { conf: string; prefix: string; pidFile: string; port: number };
}

/** The four servers of the cache-hit figures, filled and checked; `close` stops them all. */
export interface CacheBenchServers {
  targets: Record<CacheTarget, CacheTargetServer>;
  close(): Promise<void>;
}

export const CACHE_TARGETS = ['disk', 'open', 'guarded', 'plainCache'] as const;
export type CacheTarget = (typeof CACHE_TARGETS)[number];

export const CACHE_LABELS: Record<CacheTarget, string> = {
  disk: 'nginx from disk',
  open: 'edge, site without protection',
  guarded: 'edge, site with ACL (1,000 CIDRs) + 5 CC rules',
  plainCache: 'plain nginx from its own proxy cache',
};

export async function startCacheBenchServers(): Promise<CacheBenchServers> {
  const files = tempDir('rampart-bench-files-');
  mkdirSync(join(files, 'static'), { recursive: true });
  chmodSync(files, 0o755);
  writeFileSync(join(files, 'static', 'file.bin'), Buffer.alloc(4096, 7));
  const ports = { origin: await freePort(), disk: await freePort(), cache: await freePort() };
  const origin = startPlainNginx(
    'cache-origin',
    `    access_log off;
    server { listen 127.0.0.1:${ports.origin}; location / { root ${files}; } }`,
  );
  // The baselines, written by hand as an operator would: the same buffered access log as edge.ts's.
  const plain = startPlainNginx(
    'cache-plain',
    `    access_log logs/access.log combined buffer=64k flush=1s;
    proxy_cache_path cache levels=1:2 keys_zone=plain:8m inactive=7d use_temp_path=off;
    server { listen 127.0.0.1:${ports.disk}; location / { root ${files}; } }
    server {
      listen 127.0.0.1:${ports.cache};
      location / { proxy_pass http://127.0.0.1:${ports.origin}; proxy_cache plain; proxy_cache_valid 200 600s; }
    }`,
  );
  const edge = await createEdge({ proveTimeoutMs: 60_000 });
  const close = async () => {
    await edge.close();
    plain.stop();
    origin.stop();
  };
  try {
    const site = (id: number, domain: string, guarded: boolean) =>
      makeSite({
        id,
        domains: [domain],
        origins: [{ address: '127.0.0.1', port: ports.origin, weight: 1, backup: false }],
        cache_rules: [{ match: 'extension', value: 'bin', ttl: 600, ignore_query: false, honor_origin: false }],
        ...(guarded ? { protection: protection({ rule_group_id: 1 }) } : {}),
      });
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 1,
        sites: [site(1, 'cached.test', false), site(2, 'guarded.test', true)],
        protection: { rule_groups: [realisticRules(1)], acls: [blocklistAcl(2)], bans: [], unbans: [] },
      }),
    );
    if (!outcome.applied || outcome.errors.length > 0) {
      throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
    }
    for (const host of ['cached.test', 'guarded.test']) {
      await edgeRequest(edge.ports.http, { host, path: FILE }); // fills the cache
      const hit = await edgeRequest(edge.ports.http, { host, path: FILE });
      if (hit.headers['x-cache-status'] !== 'HIT') throw new Error(`${host}: expected a HIT, got ${hit.status}`);
    }
    const plainNginx = plainNginxFiles(plain);
    const edgeNginx = edgeNginxFiles(edge);
    const target = (port: number, host: string, nginx: Omit<CacheTargetServer['nginx'], 'port'>) => ({
      url: `http://127.0.0.1:${port}${FILE}`,
      host,
      lua: `wrk.headers["Host"] = "${host}"; wrk.headers["User-Agent"] = "Mozilla/5.0 bench"; wrk.headers["Accept"] = "*/*"`,
      nginx: { ...nginx, port },
    });
    const targets = {
      disk: target(ports.disk, 'disk.test', plainNginx),
      plainCache: target(ports.cache, 'disk.test', plainNginx),
      open: target(edge.ports.http, 'cached.test', edgeNginx),
      guarded: target(edge.ports.http, 'guarded.test', edgeNginx),
    };
    wrk(targets.plainCache.url, { seconds: 1, connections: 4, lua: targets.plainCache.lua }); // fills its cache
    return { targets, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function cacheHitFigures(seconds: number, rounds: number): Promise<string[]> {
  const servers = await startCacheBenchServers();
  try {
    const { targets } = servers;
    // The machine may be shared: each round runs the four back to back and is compared within itself,
    // and the nginx worker's CPU time per request is reported beside the rates.
    const workers = Object.fromEntries(
      CACHE_TARGETS.map((name) => [name, workersOf(targets[name].nginx.pidFile)]),
    ) as Record<CacheTarget, number[]>;
    const runs = Object.fromEntries(
      CACHE_TARGETS.map((name) => [name, { rate: [] as number[], cpu: [] as number[] }]),
    ) as Record<CacheTarget, { rate: number[]; cpu: number[] }>;
    for (let round = 0; round < rounds; round++) {
      for (const name of CACHE_TARGETS) {
        const before = cpuSeconds(workers[name]);
        const result = wrk(targets[name].url, { seconds, connections: 32, lua: targets[name].lua });
        runs[name].rate.push(result.requestsPerSecond);
        runs[name].cpu.push(((cpuSeconds(workers[name]) - before) * 1e6) / result.requests);
      }
    }
    const disk = runs.disk;
    const figure = (name: CacheTarget) => {
      const label = `  ${CACHE_LABELS[name]}${name === 'plainCache' ? ' (reference)' : ''}`;
      const ratios = runs[name].rate.map((rate, i) => rate / disk.rate[i]!);
      return `${label}: ${median(runs[name].rate).toFixed(0)} req/s, ${median(runs[name].cpu).toFixed(1)} µs CPU a request; ratio ${median(ratios).toFixed(3)} of nginx from disk (median of the rounds' ratios: ${ratios.map((r) => r.toFixed(2)).join(' ')})`;
    };
    return [
      `cache HIT, 4 KiB file: nginx from disk ${median(disk.rate).toFixed(0)} req/s, ${median(disk.cpu).toFixed(1)} µs CPU a request`,
      figure('open'),
      figure('guarded'),
      figure('plainCache'),
    ];
  } finally {
    await servers.close();
  }
}

if (import.meta.main) {
  const { seconds, rounds, header } = wrkRounds();
  console.log([header, ...(await cacheHitFigures(seconds, rounds))].join('\n'));
}
