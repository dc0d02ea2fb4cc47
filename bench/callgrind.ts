// Instructions an nginx spends on a request, counted under callgrind (valgrind) instead of timed:
// the config of a running nginx is started again as one process (no master, no user switch) on
// other ports, warmed up (LuaJIT compiles its traces), its counters zeroed, then h2load sends a fixed
// number of requests over HTTP/1.1 and the user-space instructions are divided by them. The count
// does not depend on how busy or fast the machine is, so it can gate (bench/perf-check.ts); the
// kernel's share (the system calls) is not in it.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, globSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import { NGINX } from './nginx-process.ts';
import { freePort, tempDir, until } from './support.ts';

/** A running nginx to copy: its config file, its prefix, and the port the requests go to. */
export interface NginxUnderTest {
  conf: string;
  prefix: string;
  port: number;
}

/** What to send: the Host, the paths in turn, and the other request headers. */
export interface RequestLoad {
  host: string;
  paths: readonly string[];
  headers?: Readonly<Record<string, string>>;
  /** HTTPS on kept-alive connections, the host sent as SNI. */
  tls?: boolean;
  /** HTTP/2 (over TLS with `tls`), ten streams at a time on each connection. */
  http2?: boolean;
  /**
   * Another client instead of h2load (TLS handshakes, say): runs against `port` for the warm-up
   * or for the counted part, and answers the units it completed (the count divides by them).
   */
  drive?: (port: number, phase: 'warm-up' | 'counted') => number;
  /** Whether the copy serves yet (a stream, say); by default the first path answers 200. */
  ready?: (port: number) => Promise<boolean>;
}

export interface InstructionCount {
  requests: number;
  instructions: number;
  perRequest: number;
  /** callgrind's dump of the counted requests (for callgrind_annotate). */
  dump: string;
}

/** The requests a count sends after its warm-up, unless told otherwise (BENCH_REQUESTS). */
export const COUNTED_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);

/**
 * The text of config file `conf` with each `include` of files beside it (the edge's
 * `include streams/*.conf;`) replaced by their text, so that their listens move too.
 */
function withIncludes(conf: string): string {
  const base = dirname(conf);
  return readFileSync(conf, 'utf8').replace(
    /^(\s*)include ([^;\s/][^;\s]*);$/gm,
    (line, indent: string, pattern: string) => {
      if (!pattern.includes('*'))
        return existsSync(join(base, pattern)) ? readFileSync(join(base, pattern), 'utf8') : line;
      return globSync(pattern, { cwd: base })
        .sort()
        .map((file) => readFileSync(join(base, file), 'utf8'))
        .join('\n')
        .replace(/^/gm, indent);
    },
  );
}

/**
 * The config of a running nginx, for a second instance beside it: every listen moves to a free port
 * (the target's to `port`), the pid file to `dir`, and no user switch (one process, no master).
 */
async function secondInstance(text: string, targetPort: number, port: number, dir: string): Promise<string> {
  const listens = [...text.matchAll(/listen (?:127\.0\.0\.1:)?(\d+)/g)].map((match) => Number(match[1]));
  if (!listens.includes(targetPort)) throw new Error(`no listen on ${targetPort} in the config`);
  const moved = new Map<number, number>();
  for (const listen of new Set(listens)) moved.set(listen, listen === targetPort ? port : await freePort());
  return text
    .replace(
      /listen (127\.0\.0\.1:)?(\d+)/g,
      (_, address: string | undefined, old: string) => `listen ${address ?? ''}${moved.get(Number(old))}`,
    )
    .replace(/^(\s*)pid [^;]+;/m, `$1pid ${join(dir, 'nginx.pid')};`)
    .replace(/^\s*user [^;]+;\n/m, '');
}

/**
 * h2load: `requests` requests on 4 connections, over HTTP/1.1 one at a time on each, or over HTTP/2
 * ten streams at a time (`load.http2`); throws on a failure.
 */
function h2load(port: number, load: RequestLoad, requests: number): void {
  const headers = Object.entries({ ':authority': load.host, ...load.headers }).flatMap(([name, value]) => [
    '-H',
    `${name}: ${value}`,
  ]);
  const urls = load.paths.map((path) =>
    load.tls ? `https://${load.host}:${port}${path}` : `http://127.0.0.1:${port}${path}`,
  );
  const target = load.tls ? [`--connect-to=127.0.0.1:${port}`] : [];
  const output = execFileSync(
    'h2load',
    [...(load.http2 ? ['-m10'] : ['--h1', '-m1']), '-t1', '-c4', `-n${requests}`, ...target, ...headers, ...urls],
    {
      encoding: 'utf8',
    },
  );
  const done = output.match(/requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded/);
  const codes = output.match(/status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/);
  if (Number(done?.[1]) !== requests || Number(codes?.[1]) !== requests) {
    throw new Error(`h2load: not every request succeeded with a 2xx on port ${port}:\n${output}`);
  }
}

/**
 * Counts the instructions a request costs `server` (a copy of its config, changed by `edit` first:
 * a feature switched off, say). The first path must answer 200 before the warm-up starts.
 */
export async function instructionsPerRequest(
  server: NginxUnderTest,
  load: RequestLoad,
  options: { requests?: number; edit?: (conf: string) => string } = {},
): Promise<InstructionCount> {
  const requests = options.requests ?? COUNTED_REQUESTS;
  const dir = tempDir('rampart-bench-callgrind-');
  const port = await freePort();
  // Beside the original: paths in it relative to its directory (certificates, say) still resolve.
  const copy = join(dirname(server.conf), `callgrind-${basename(dir)}.conf`);
  const text = await secondInstance(withIncludes(server.conf), server.port, port, dir);
  writeFileSync(copy, options.edit ? options.edit(text) : text);
  const child: ChildProcess = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      // LuaJIT writes machine code into memory as it runs.
      '--smc-check=all-non-file',
      `--callgrind-out-file=${join(dir, 'callgrind.out')}`,
      NGINX,
      '-p',
      server.prefix,
      '-c',
      copy,
      '-g',
      'daemon off; master_process off;',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // A copy that failed stays for a look.
  let failed = false;
  try {
    const first = load.paths[0] ?? '/';
    let status = 0;
    const ready =
      load.ready ??
      (async (target: number) => {
        const headers = { ...load.headers };
        status = (await edgeRequest(target, { host: load.host, path: first, tls: load.tls ?? false, headers })).status;
        return status === 200;
      });
    await until(async () => {
      if (child.exitCode !== null) throw new Error('stopped');
      return (await ready(port)) ? true : undefined;
    }, 120_000).catch(() => {
      const why =
        child.exitCode !== null
          ? `exited with ${child.exitCode}`
          : load.ready
            ? 'never got ready'
            : `answered ${status || 'nothing'} for ${first}`;
      failed = true;
      throw new Error(`the nginx under callgrind ${why} (config ${copy})`);
    });
    const drive =
      load.drive ??
      ((target: number, phase: 'warm-up' | 'counted') => {
        const count = phase === 'counted' ? requests : Math.max(1000, Math.round(requests / 2));
        h2load(target, load, count);
        return count;
      });
    // Warm-up: LuaJIT's traces form in the first hundreds of requests.
    drive(port, 'warm-up');
    const pid = String(child.pid);
    execFileSync('callgrind_control', ['-z', pid], { stdio: 'ignore' });
    const done = drive(port, 'counted');
    execFileSync('callgrind_control', ['-d', pid], { stdio: 'ignore' });
    const dump = readdirSync(dir).find((name) => name.startsWith('callgrind.out') && name.endsWith('.1'));
    if (!dump) throw new Error(`callgrind wrote no dump in ${dir}`);
    const totals = readFileSync(join(dir, dump), 'utf8').match(/^(?:summary|totals): (\d+)/m);
    if (!totals) throw new Error(`no totals in ${dump}`);
    const instructions = Number(totals[1]);
    if (!(done > 0)) throw new Error(`the load completed no request on ${port}`);
    return { requests: done, instructions, perRequest: instructions / done, dump: join(dir, dump) };
  } finally {
    child.kill('SIGQUIT');
    await exited;
    if (!failed) rmSync(copy, { force: true });
  }
}

/** "12,345" */
export const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

/**
 * One case of an instruction bench against plain nginx, as bench/report.ts reads it:
 * `label: edge N (units…), plain nginx M (units): plain/edge R`.
 */
export const edgePlainLine = (label: string, edge: InstructionCount, plain: InstructionCount, unit = '') =>
  `${label}: edge ${thousands(edge.perRequest)} (${edge.requests}${unit ? ` ${unit}` : ''}), plain nginx ` +
  `${thousands(plain.perRequest)} (${plain.requests}): plain/edge ${(plain.perRequest / edge.perRequest).toFixed(3)}`;
