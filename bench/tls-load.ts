// The clients of bench/edge-tls.ts: tls-load.c (compiled here once) for handshakes and its
// certificates, h2load for kept-alive HTTPS and HTTP/2. Both run on core 1, as wrk does.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from './support.ts';

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find((path) => existsSync(path));
export const onCore1 = (file: string, args: string[]): [string, string[]] =>
  TASKSET ? [TASKSET, ['-c', '1', file, ...args]] : [file, args];

const binaries = new Map<string, string>();

/** A client of bench/ (`name`.c) built once with gcc; tls-load.c needs libssl-dev. */
export function cBinary(name: 'tls-load' | 'stream-load'): string {
  const known = binaries.get(name);
  if (known) return known;
  const out = join(tempDir(`rampart-${name}-`), name);
  execFileSync('gcc', [
    '-O2',
    '-o',
    out,
    join(ROOT, 'bench', `${name}.c`),
    ...(name === 'tls-load' ? ['-lssl', '-lcrypto'] : []),
  ]);
  binaries.set(name, out);
  return out;
}

const tlsLoadBinary = () => cBinary('tls-load');

/** `count` self-signed certificates (`%d` in the domain is the number), each with its own key. */
export function makeCerts(kind: 'ec' | 'rsa', domain: string, count: number): Array<{ cert: string; key: string }> {
  const dir = tempDir('rampart-bench-certs-');
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync(tlsLoadBinary(), ['certs', kind, dir, domain, String(count)]);
    return Array.from({ length: count }, (_, i) => ({
      cert: readFileSync(join(dir, `${i}.pem`), 'utf8'),
      key: readFileSync(join(dir, `${i}.key`), 'utf8'),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Completed requests of one load run, its length and the client's own CPU seconds. */
export interface LoadResult {
  requests: number;
  seconds: number;
  clientCpu: number;
  /** Handshakes that resumed a session (tls-load only). */
  resumed?: number;
}

export interface HandshakeLoad {
  port: number;
  /** The SNI; `%d` spreads the connections over `names` names. */
  sni: string;
  names?: number;
  resume: boolean;
  tls: '1.2' | '1.3';
  seconds: number;
  /** Connections open at once (one client process each). */
  procs?: number;
  /** Where the sequence of names starts (see tls-load.c). */
  first?: number;
}

/** One TLS connection after another (full or resumed handshakes), one request each, bounded by time. */
export function handshakes(load: HandshakeLoad): LoadResult {
  const args = [
    'client',
    '127.0.0.1',
    String(load.port),
    load.sni,
    String(load.names ?? 1),
    String(load.seconds),
    String(load.procs ?? 8),
    load.resume ? 'resume' : 'new',
    load.tls,
    String(load.first ?? 0),
  ];
  const [file, argv] = onCore1(tlsLoadBinary(), args);
  const output = execFileSync(file, argv, { encoding: 'utf8', timeout: (load.seconds + 30) * 1000 });
  const field = (name: string) => Number(output.match(new RegExp(`${name}=([\\d.]+)`))?.[1]);
  if (field('failed') > 0) throw new Error(`tls-load: ${field('failed')} connections failed on port ${load.port}`);
  return { requests: field('handshakes'), seconds: load.seconds, clientCpu: field('cpu'), resumed: field('resumed') };
}

/**
 * h2load (-t1 -c32) for a fixed number of requests, about `seconds` long: HTTP/1.1 over kept-alive
 * TLS connections, or HTTP/2 with 10 streams each. (Its -D mode sometimes never ends here.) nginx
 * closes a connection after keepalive_requests (1,000 by default) requests, which h2load's HTTP/2
 * client does not survive: 32 connections carry 32,000 requests, so a longer run is several runs of
 * at most 30,000, each on fresh connections (their handshakes cost both servers the same).
 */
export function h2load(port: number, sni: string, protocol: 'h1' | 'h2', seconds: number): LoadResult {
  // About `seconds` at today's rates (h1 35,000-38,000/s, h2 25,000-30,000/s), and about a second
  // on a machine twice as fast with BENCH_SECONDS=3: the worker's CPU time is counted in clock ticks
  // (10 ms), and h1 runs of 5,000 requests a second were 0.4 s long, 27 ticks.
  let left = Math.round(seconds * (protocol === 'h1' ? 30_000 : 20_000));
  const total = { requests: 0, seconds: 0 };
  while (left > 0) {
    const batch = Math.min(left, 30_000);
    const run = h2loadRun(port, sni, protocol, batch, seconds);
    total.requests += run.requests;
    total.seconds += run.seconds;
    left -= batch;
  }
  return { ...total, clientCpu: Number.NaN };
}

function h2loadRun(
  port: number,
  sni: string,
  protocol: 'h1' | 'h2',
  requests: number,
  seconds: number,
): { requests: number; seconds: number } {
  const args = [
    '-t1',
    '-c32',
    `-n${requests}`,
    ...(protocol === 'h1' ? ['--h1'] : ['-m10']),
    `--connect-to=127.0.0.1:${port}`,
    `https://${sni}:${port}/`,
  ];
  const [file, argv] = onCore1('h2load', args);
  const output = execFileSync(file, argv, { encoding: 'utf8', timeout: (seconds * 10 + 30) * 1000 });
  const done = output.match(/requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed/);
  const finished = output.match(/finished in ([\d.]+)(ms|s),/);
  if (!done || !finished) throw new Error(`h2load gave no count:\n${output}`);
  if (Number(done[2]) > 0) throw new Error(`h2load: ${done[2]} requests failed on port ${port}`);
  if (!/status codes: \d+ 2xx, 0 3xx, 0 4xx, 0 5xx/.test(output)) throw new Error(`h2load: non-2xx answers\n${output}`);
  const elapsed = Number(finished[1]) / (finished[2] === 'ms' ? 1000 : 1);
  return { requests: Number(done[1]), seconds: elapsed };
}
