// What a cache hit costs nginx in its own code, counted instead of timed: the servers of
// edge-cache.ts, each run again as one process under callgrind (valgrind), with the same config on
// other ports. After a warm-up (LuaJIT compiles its traces) the counters are zeroed, wrk sends
// requests for a few seconds, and the user-space instructions are divided by the requests. Counts
// are the same on a busy machine or a quiet one, where the rates of edge-cache.ts swing; the
// kernel's share (the system calls) is not in them.
// Usage: node bench/edge-cache-instructions.ts   (BENCH_SECONDS: how long wrk sends, default 5)
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import {
  CACHE_LABELS,
  CACHE_TARGETS,
  type CacheTarget,
  type CacheTargetServer,
  startCacheBenchServers,
} from './edge-cache.ts';
import { NGINX } from './nginx-process.ts';
import { freePort, tempDir, until, wrk } from './support.ts';

interface Count {
  requests: number;
  instructions: number;
}

/**
 * The config of a running nginx, for a second instance beside it: every listen moves to a free port
 * (the target's to `port`), the pid file to `dir`, and no user switch (one process, no master).
 */
async function secondInstance(text: string, targetPort: number, port: number, dir: string): Promise<string> {
  const listens = [...text.matchAll(/listen 127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1]));
  if (!listens.includes(targetPort)) throw new Error(`no listen on ${targetPort} in the config`);
  const moved = new Map<number, number>();
  for (const listen of new Set(listens)) moved.set(listen, listen === targetPort ? port : await freePort());
  return text
    .replace(/listen 127\.0\.0\.1:(\d+)/g, (_, old: string) => `listen 127.0.0.1:${moved.get(Number(old))}`)
    .replace(/^(\s*)pid [^;]+;/m, `$1pid ${join(dir, 'nginx.pid')};`)
    .replace(/^\s*user [^;]+;\n/m, '');
}

async function countHits(target: CacheTargetServer, seconds: number): Promise<Count> {
  const { conf, prefix, port: targetPort } = target.nginx;
  const dir = tempDir('rampart-bench-callgrind-');
  const port = await freePort();
  const copy = join(dir, 'nginx.conf');
  writeFileSync(copy, await secondInstance(readFileSync(conf, 'utf8'), targetPort, port, dir));
  const out = join(dir, 'callgrind.out');
  const child: ChildProcess = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      // LuaJIT writes machine code into memory as it runs.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${out}`,
      NGINX,
      '-p',
      prefix,
      '-c',
      copy,
      '-g',
      'daemon off; master_process off;',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const { host, lua } = target;
    const path = new URL(target.url).pathname;
    await until(async () => ((await edgeRequest(port, { host, path })).status === 200 ? true : undefined), 120_000);
    // Warm-up: LuaJIT's traces form in the first hundreds of requests.
    wrk(`http://127.0.0.1:${port}${path}`, { seconds: 3, connections: 4, lua });
    const pid = String(child.pid);
    execFileSync('callgrind_control', ['-z', pid], { stdio: 'ignore' });
    const run = wrk(`http://127.0.0.1:${port}${path}`, { seconds, connections: 4, lua });
    execFileSync('callgrind_control', ['-d', pid], { stdio: 'ignore' });
    const dump = readdirSync(dir).find((name) => name.startsWith('callgrind.out') && name.endsWith('.1'));
    if (!dump) throw new Error(`callgrind wrote no dump in ${dir}`);
    const totals = readFileSync(join(dir, dump), 'utf8').match(/^(?:summary|totals): (\d+)/m);
    if (!totals) throw new Error(`no totals in ${dump}`);
    return { requests: run.requests, instructions: Number(totals[1]) };
  } finally {
    child.kill('SIGQUIT');
    await exited;
  }
}

export async function cacheHitInstructions(seconds: number): Promise<string[]> {
  const servers = await startCacheBenchServers();
  try {
    const counts = {} as Record<CacheTarget, Count>;
    for (const target of CACHE_TARGETS) counts[target] = await countHits(servers.targets[target], seconds);
    const perRequest = (target: CacheTarget) => counts[target].instructions / counts[target].requests;
    const disk = perRequest('disk');
    const plainCache = perRequest('plainCache');
    return CACHE_TARGETS.map((target) => {
      const own = perRequest(target);
      const against = target === 'disk' ? [] : [`${(own / disk).toFixed(2)}× nginx from disk`];
      if (target === 'open' || target === 'guarded')
        against.push(`${(own / plainCache).toFixed(2)}× nginx's own proxy cache`);
      const ratios = against.length > 0 ? `; ${against.join(', ')}` : '';
      return `${CACHE_LABELS[target]}: ${Math.round(own).toLocaleString('en-US')} instructions a request (${counts[target].requests} requests)${ratios}`;
    });
  } finally {
    await servers.close();
  }
}

if (import.meta.main) {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const header = `date: ${new Date().toISOString()}  callgrind, user-space instructions of the nginx process, wrk -t1 -c4 for ${seconds} s after a 3 s warm-up`;
  console.log([header, ...(await cacheHitInstructions(seconds))].join('\n'));
}
