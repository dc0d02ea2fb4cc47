// What a cache hit costs nginx in its own code, counted instead of timed: the servers of
// edge-cache.ts, each run again as one process under callgrind (bench/callgrind.ts), with the same
// config on other ports. Counts are the same on a busy machine or a quiet one, where the rates of
// edge-cache.ts swing; the kernel's share (the system calls) is not in them.
// Usage: node bench/edge-cache-instructions.ts   (BENCH_REQUESTS: requests counted, default 4000)
import { COUNTED_REQUESTS, type InstructionCount, instructionsPerRequest, thousands } from './callgrind.ts';
import { CACHE_LABELS, CACHE_TARGETS, type CacheTarget, startCacheBenchServers } from './edge-cache.ts';

/** The browser-like headers wrk sends in edge-cache.ts. */
export const BROWSER_HEADERS = { 'user-agent': 'Mozilla/5.0 bench', accept: '*/*' } as const;

export async function cacheHitInstructions(): Promise<string[]> {
  const servers = await startCacheBenchServers();
  try {
    const counts = {} as Record<CacheTarget, InstructionCount>;
    for (const target of CACHE_TARGETS) {
      const { nginx, host, url } = servers.targets[target];
      counts[target] = await instructionsPerRequest(nginx, {
        host,
        paths: [new URL(url).pathname],
        headers: BROWSER_HEADERS,
      });
    }
    const disk = counts.disk.perRequest;
    const plainCache = counts.plainCache.perRequest;
    return CACHE_TARGETS.map((target) => {
      const own = counts[target].perRequest;
      const against = target === 'disk' ? [] : [`${(own / disk).toFixed(2)}× nginx from disk`];
      if (target === 'open' || target === 'guarded')
        against.push(`${(own / plainCache).toFixed(2)}× nginx's own proxy cache`);
      const ratios = against.length > 0 ? `; ${against.join(', ')}` : '';
      return `${CACHE_LABELS[target]}: ${thousands(own)} instructions a request${ratios}`;
    });
  } finally {
    await servers.close();
  }
}

if (import.meta.main) {
  const header = `date: ${new Date().toISOString()}  callgrind, user-space instructions of the nginx process, h2load -c4 over HTTP/1.1, ${COUNTED_REQUESTS} requests counted after a warm-up`;
  console.log([header, ...(await cacheHitInstructions())].join('\n'));
}
