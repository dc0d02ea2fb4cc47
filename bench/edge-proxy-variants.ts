// What each default feature costs a proxied request in CPU, beside the instruction counts of
// bench/edge-proxy-instructions.ts: the nginx worker's CPU time a request (from /proc) under wrk for
// plain nginx, the edge with a site's defaults, and copies of the edge's config with features taken
// out (the same copies that bench counts), each started beside the edge with its master and worker.
// Rounds alternate between all of them; medians. The copies are for measuring only: what they take
// out is what a site needs (the router and the balancer make sites data; the JSON log carries the
// counters). The last copy has no Lua on the request and nginx's combined log: the floor of an edge
// whose routing moved into nginx itself.
// Usage: node bench/edge-proxy-variants.ts   (BENCH_SECONDS, BENCH_ROUNDS)
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { secondInstance } from './callgrind.ts';
import { PROXY_HOST, pin, startProxyBenchServers } from './edge-proxy.ts';
import { PROXY_VARIANTS } from './edge-proxy-instructions.ts';
import { cpuSeconds, workersOf } from './nginx-cpu.ts';
import { NGINX } from './nginx-process.ts';
import { freePort, median, tempDir, until, wrk, wrkRounds } from './support.ts';

interface Target {
  label: string;
  port: number;
  pidFile: string;
}

/** Starts a copy of `conf` (edited) beside the running nginx it belongs to; its stop function. */
async function startCopy(
  server: { conf: string; prefix: string; port: number },
  label: string,
  edit: (conf: string) => string,
): Promise<Target & { stop: () => void }> {
  const dir = tempDir('rampart-bench-variant-');
  const port = await freePort();
  const text = await secondInstance(readFileSync(server.conf, 'utf8'), server.port, port, dir, true);
  const copy = join(dirname(server.conf), `variant-${basename(dir)}.conf`);
  writeFileSync(copy, edit(text));
  execFileSync(NGINX, ['-p', server.prefix, '-c', copy]);
  const pidFile = join(dir, 'nginx.pid');
  await until(async () => (workersOf(pidFile).length > 0 ? true : undefined), 30_000);
  return {
    label,
    port,
    pidFile,
    stop: () => {
      execFileSync(NGINX, ['-p', server.prefix, '-c', copy, '-s', 'quit']);
      rmSync(copy, { force: true });
    },
  };
}

export interface VariantFigure {
  label: string;
  cpuMicros: number;
  /** Plain nginx's CPU a request over this one's (1: costs no more than plain nginx). */
  cpuRatio: number;
}

export async function proxyVariantFigures(seconds: number, rounds: number): Promise<VariantFigure[]> {
  const servers = await startProxyBenchServers();
  const copies: Array<Target & { stop: () => void }> = [];
  try {
    const variant = (label: string) => {
      const found = PROXY_VARIANTS.find((v) => v.label === label);
      if (!found) throw new Error(`no variant ${label}`);
      return (conf: string) => found.edit(conf, servers.originPort);
    };
    const withoutLog = variant('without the access log (counters and bandwidth)');
    const combined = variant("the access log in nginx's combined format instead of JSON");
    const withoutLua = variant('without the router and the balancer (no Lua on the request)');
    const edits: Array<[string, (conf: string) => string]> = [
      ['the edge without the access log', withoutLog],
      ["the edge with nginx's combined log instead of JSON", combined],
      ['the edge without the Lua router', variant('without the Lua router (the site id set in the config)')],
      ['the edge without the Lua balancer', variant('without the Lua balancer (the origin in an upstream block)')],
      ['the edge without the router and the balancer (no Lua on the request)', withoutLua],
      ["no Lua on the request, nginx's combined log", (conf) => combined(withoutLua(conf))],
    ];
    for (const [label, edit] of edits) copies.push(await startCopy(servers.edge, label, edit));
    const targets: Target[] = [
      { label: 'plain nginx', ...servers.plain },
      { label: 'the edge, a site with its defaults', ...servers.edge },
      ...copies,
    ];
    pin(
      targets.flatMap((target) => workersOf(target.pidFile)),
      0,
    );
    pin(workersOf(servers.origin.pidFile), 1);
    const lua = `wrk.headers["Host"] = "${PROXY_HOST}"`;
    const cpu = new Map<string, number[]>(targets.map((target) => [target.label, []]));
    for (let round = 0; round < rounds; round++) {
      for (const target of targets) {
        const workers = workersOf(target.pidFile);
        const before = cpuSeconds(workers);
        const result = wrk(`http://127.0.0.1:${target.port}/`, { seconds, connections: 32, lua });
        cpu.get(target.label)?.push(((cpuSeconds(workers) - before) * 1e6) / result.requests);
      }
    }
    const plain = median(cpu.get('plain nginx') ?? []);
    return targets.map((target) => {
      const micros = median(cpu.get(target.label) ?? []);
      return { label: target.label, cpuMicros: micros, cpuRatio: plain / micros };
    });
  } finally {
    for (const copy of copies) copy.stop();
    await servers.close();
  }
}

if (import.meta.main) {
  const { seconds, rounds } = wrkRounds();
  console.log(
    `date: ${new Date().toISOString()}  ${seconds} s a run, ${rounds} alternating rounds, medians; load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  for (const figure of await proxyVariantFigures(seconds, rounds)) {
    console.log(
      `${figure.label}: ${figure.cpuMicros.toFixed(2)} µs CPU a request, ${figure.cpuRatio.toFixed(3)} of plain nginx`,
    );
  }
}
