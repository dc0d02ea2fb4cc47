// A proxied request (cache off, no protection, the features a site has by default) through the edge
// against a hand-written plain nginx proxy to the same origin, with one worker each.
//
// Why the rate swung (0.58–0.99 for one build): wrk, the proxy's worker and the origin's worker are
// three busy processes on two cores, and where the scheduler put them decided the rate: the proxy
// sharing a core with the origin or with wrk runs at about half the speed of one alone. So the
// workers are pinned here, the proxy (edge or plain, in turn, each first in every other round) alone
// on core 0, the origin and wrk on core 1, and beside the rate the proxy worker's CPU time a request
// is reported: that is what the edge adds, and a busy machine disturbs it far less than the rate.
// Usage: node bench/edge-proxy.ts   (BENCH_SECONDS, BENCH_ROUNDS; also a part of bench/report.ts)
import { join } from 'node:path';
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import { edgeRequest } from '../apps/agent/test/support/http.ts';
import type { NginxUnderTest } from './callgrind.ts';
import { cpuSeconds, pinToCore, workersOf } from './nginx-cpu.ts';
import { edgeNginxFiles, plainNginxFiles, startPlainNginx } from './nginx-process.ts';
import { freePort, median, sidesInTurn, wrk, wrkRounds } from './support.ts';

export const PROXY_HOST = 'bench.test';

/** The servers of the proxy figure: the origin, the plain nginx proxy and the edge with one site. */
export interface ProxyBenchServers {
  originPort: number;
  origin: { pidFile: string };
  plain: NginxUnderTest & { pidFile: string };
  edge: NginxUnderTest & { pidFile: string };
  close(): Promise<void>;
}

export async function startProxyBenchServers(): Promise<ProxyBenchServers> {
  const originPort = await freePort();
  const origin = startPlainNginx(
    'proxy-origin',
    `    access_log off;
    server { listen 127.0.0.1:${originPort}; location / { return 200 "origin\\n"; } }`,
  );
  // The baseline, written by hand as an operator would: a buffered access log, upstream keepalive.
  const plainPort = await freePort();
  const plain = startPlainNginx(
    'proxy-plain',
    `    access_log logs/access.log combined buffer=64k flush=1s;
    upstream origin { server 127.0.0.1:${originPort}; keepalive 64; }
    server {
      listen 127.0.0.1:${plainPort};
      location / { proxy_pass http://origin; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $host; }
    }`,
  );
  const edge = await createEdge({ proveTimeoutMs: 60_000 });
  const close = async () => {
    await edge.close();
    plain.stop();
    origin.stop();
  };
  try {
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 1,
        sites: [
          makeSite({
            id: 1,
            domains: [PROXY_HOST],
            origins: [{ address: '127.0.0.1', port: originPort, weight: 1, backup: false }],
            // As the master creates a site: gzip on (this answer is too short to compress).
            gzip: true,
          }),
        ],
      }),
    );
    if (!outcome.applied) throw new Error(`edge did not apply: ${outcome.error}`);
    const answer = await edgeRequest(edge.ports.http, { host: PROXY_HOST });
    if (answer.status !== 200 || answer.body.trim() !== 'origin') throw new Error(`edge answered ${answer.status}`);
    return {
      originPort,
      origin: { pidFile: join(origin.dir, 'nginx.pid') },
      plain: { ...plainNginxFiles(plain), port: plainPort },
      edge: { ...edgeNginxFiles(edge), port: edge.ports.http },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface ProxyFigure {
  edge: { rate: number; cpuMicros: number; p99Ms: number };
  plain: { rate: number; cpuMicros: number; p99Ms: number };
  /** Median of the rounds' rate ratios (edge / plain). */
  rateRatio: number;
  /** Plain nginx's CPU a request over the edge's: 1 when the edge costs no more. */
  cpuRatio: number;
  rounds: { rate: number[]; cpu: number[] };
}

export async function proxyFigures(seconds: number, rounds: number): Promise<ProxyFigure> {
  const servers = await startProxyBenchServers();
  try {
    const workers = { edge: workersOf(servers.edge.pidFile), plain: workersOf(servers.plain.pidFile) };
    pinToCore([...workers.edge, ...workers.plain], 0);
    pinToCore(workersOf(servers.origin.pidFile), 1);
    const lua = `wrk.headers["Host"] = "${PROXY_HOST}"`;
    const runs = {
      edge: { rate: [] as number[], cpu: [] as number[], p99: [] as number[] },
      plain: { rate: [] as number[], cpu: [] as number[], p99: [] as number[] },
    };
    for (let round = 0; round < rounds; round++) {
      for (const name of sidesInTurn(round)) {
        const before = cpuSeconds(workers[name]);
        const result = wrk(`http://127.0.0.1:${servers[name].port}/`, { seconds, connections: 32, lua });
        runs[name].rate.push(result.requestsPerSecond);
        runs[name].cpu.push(((cpuSeconds(workers[name]) - before) * 1e6) / result.requests);
        runs[name].p99.push(result.p99Ms);
      }
    }
    const rateRatios = runs.edge.rate.map((rate, i) => rate / runs.plain.rate[i]!);
    const cpuRatios = runs.plain.cpu.map((cpu, i) => cpu / runs.edge.cpu[i]!);
    const summary = (name: 'edge' | 'plain') => ({
      rate: median(runs[name].rate),
      cpuMicros: median(runs[name].cpu),
      p99Ms: median(runs[name].p99),
    });
    return {
      edge: summary('edge'),
      plain: summary('plain'),
      rateRatio: median(rateRatios),
      cpuRatio: median(cpuRatios),
      rounds: { rate: rateRatios, cpu: cpuRatios },
    };
  } finally {
    await servers.close();
  }
}

export function proxyFigureLine(figure: ProxyFigure): string {
  const { edge, plain } = figure;
  const list = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  // Below about 90 % the proxy was not what limited the rate: the rates then hide its cost.
  const busy = (side: ProxyFigure['edge']) => `${((side.rate * side.cpuMicros) / 1e4).toFixed(0)} %`;
  return [
    `proxy, cache off: edge ${edge.rate.toFixed(0)} req/s, ${edge.cpuMicros.toFixed(1)} µs CPU a request (p99 ${edge.p99Ms.toFixed(2)} ms, worker busy ${busy(edge)});`,
    `plain nginx ${plain.rate.toFixed(0)} req/s, ${plain.cpuMicros.toFixed(1)} µs (p99 ${plain.p99Ms.toFixed(2)} ms, worker busy ${busy(plain)});`,
    `ratio by rate ${figure.rateRatio.toFixed(3)} (rounds ${list(figure.rounds.rate)}), by CPU a request ${figure.cpuRatio.toFixed(3)} (rounds ${list(figure.rounds.cpu)})`,
  ].join(' ');
}

if (import.meta.main) {
  const { seconds, rounds, header } = wrkRounds();
  console.log(`${header}; the proxies' workers pinned to core 0, the origin and wrk to core 1`);
  console.log(proxyFigureLine(await proxyFigures(seconds, rounds)));
}
