import { type ChildProcess, execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');

/** Ports for servers a bench starts: below the range of outgoing connections (see ports.ts). */
export { freePort } from '../apps/agent/test/support/ports.ts';

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** Polls until the URL answers 200; returns the milliseconds from `since`. Bounded to 30 s. */
export async function waitFor200(url: string, since: number): Promise<number> {
  while (performance.now() - since < 30_000) {
    try {
      if ((await fetch(url)).status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url} did not answer 200 within 30 s`);
}

/** Servers under test run on core 0 and wrk on core 1 (where taskset exists), so they do not share a core. */
const TASKSET = ['/usr/bin/taskset', '/bin/taskset'].find((path) => existsSync(path));

/**
 * Runs this bench script again pinned to one core (where taskset exists) and exits with its status;
 * returns at once inside the pinned run. For in-process benches, where server and client share a process.
 */
export function runPinnedToCore0(): void {
  if (!TASKSET || process.env.BENCH_PINNED) return;
  const script = process.argv[1] ?? '';
  const result = spawnSync(
    TASKSET,
    ['-c', '0', process.execPath, ...process.execArgv, script, ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, BENCH_PINNED: '1' },
    },
  );
  process.exit(result.status ?? 1);
}

export function start(command: string, args: string[], env: Record<string, string>, cwd = ROOT): ChildProcess {
  const [file, argv] = TASKSET ? [TASKSET, ['-c', '0', command, ...args]] : [command, args];
  return spawn(file, argv, { cwd, env: { ...process.env, ...env }, stdio: 'ignore' });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx/3xx answers (only with `allowFailures`; otherwise any is an error). */
  failed: number;
}

export interface WrkOptions {
  seconds: number;
  connections: number;
  lua?: string;
  allowFailures?: boolean;
}

function wrkCommand(url: string, options: WrkOptions): [string, string[]] {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency'];
  if (options.lua) {
    const script = join(tempDir('rampart-wrk-'), 'script.lua');
    writeFileSync(script, options.lua);
    args.push('-s', script);
  }
  return TASKSET ? [TASKSET, ['-c', '1', 'wrk', ...args, url]] : ['wrk', [...args, url]];
}

function parseWrk(url: string, output: string, options: WrkOptions): WrkResult {
  const rps = Number(output.match(/Requests\/sec:\s+([\d.]+)/)?.[1]);
  const latency = (label: string) => {
    const match = output.match(new RegExp(`${label}%\\s+([\\d.]+)(us|ms|s)`));
    if (!match) return Number.NaN;
    const scale = match[2] === 'us' ? 0.001 : match[2] === 's' ? 1000 : 1;
    return Number(match[1]) * scale;
  };
  const failed = Number(output.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  if (failed > 0 && !options.allowFailures) throw new Error(`wrk saw ${failed} failed responses for ${url}`);
  const requests = Number(output.match(/(\d+) requests in/)?.[1]);
  return { requests, requestsPerSecond: rps, p50Ms: latency(' 50'), p99Ms: latency(' 99'), failed };
}

/** Runs wrk (bounded by duration) against a loopback URL; an optional Lua script sets method, body, headers. */
export function wrk(url: string, options: WrkOptions): WrkResult {
  const [file, argv] = wrkCommand(url, options);
  return parseWrk(url, execFileSync(file, argv, { encoding: 'utf8' }), options);
}

/** wrk without blocking this process, for a client of our own running at the same time. */
export function wrkInBackground(url: string, options: WrkOptions): Promise<WrkResult> {
  const [file, argv] = wrkCommand(url, options);
  return new Promise((resolve, reject) => {
    execFile(file, argv, { encoding: 'utf8' }, (error, stdout) => {
      if (error) reject(error);
      else {
        try {
          resolve(parseWrk(url, stdout, options));
        } catch (parseError) {
          reject(parseError);
        }
      }
    });
  });
}

/** The nearest-rank percentile (`p` from 0 to 1) of the values. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)] ?? Number.NaN;
};

export const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls `check` every 5 ms until it answers something (errors count as not yet), at most `timeoutMs`. */
export async function until<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    await pause(5);
  }
  throw new Error('timed out');
}

/**
 * The order of the two sides in round `round`: edge first in even rounds, plain nginx first in odd
 * ones, so that whatever the first run of a round pays (or gains) falls on each side in turn.
 */
export const sidesInTurn = (round: number): readonly ['edge', 'plain'] | readonly ['plain', 'edge'] =>
  round % 2 === 0 ? (['edge', 'plain'] as const) : (['plain', 'edge'] as const);

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Seconds a wrk run and alternating rounds (BENCH_SECONDS, BENCH_ROUNDS), and the report's first line. */
export function wrkRounds() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const header = `date: ${new Date().toISOString()}  node ${process.version}  wrk -t1 -c32, ${seconds} s a run, ${rounds} alternating rounds, medians`;
  return { seconds, rounds, header };
}

/** A wrk target: a loopback URL and the Lua that sets its headers. */
export interface WrkTarget {
  url: string;
  lua: string;
}

/** `rounds` alternating wrk runs (-c32) of `first` then `second`: medians of req/s and p99 of each. */
export function alternate(first: WrkTarget, second: WrkTarget, seconds: number, rounds: number) {
  const runs = { a: [] as number[], b: [] as number[], aP99: [] as number[], bP99: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    const ra = wrk(first.url, { seconds, connections: 32, lua: first.lua });
    const rb = wrk(second.url, { seconds, connections: 32, lua: second.lua });
    runs.a.push(ra.requestsPerSecond);
    runs.b.push(rb.requestsPerSecond);
    runs.aP99.push(ra.p99Ms);
    runs.bP99.push(rb.p99Ms);
  }
  return { a: median(runs.a), b: median(runs.b), aP99: median(runs.aP99), bP99: median(runs.bP99) };
}

const DOMAIN_PROOF_CONFIG = '/v1/configs/global-0-system-domains';

/**
 * Switches proof of domain ownership off through the admin API of the master at `base`, as an
 * operator would: a new installation requires it, and a bench measures serving sites, not proving.
 */
export async function switchDomainProofOff(base: string, adminToken: string): Promise<void> {
  const response = await fetch(`${base}${DOMAIN_PROOF_CONFIG}`, {
    method: 'PUT',
    headers: { 'access-token': adminToken, 'content-type': 'application/json' },
    body: JSON.stringify({ domain_proof: false }),
  });
  const answer = (await response.json()) as { code: number | string; msg: string };
  if (answer.code !== 0) throw new Error(`PUT ${DOMAIN_PROOF_CONFIG}: ${answer.code} ${answer.msg}`);
}
