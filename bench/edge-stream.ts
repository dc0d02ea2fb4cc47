// TCP and UDP streams through the edge (apps/agent/src/render/stream.ts) against a hand-written
// plain nginx `stream` proxy to the same origins, with the same kind of buffered session log:
// TCP connections a second (the origin answers a line and closes), TCP bytes a second (16 MiB
// downloads through the stream), UDP datagrams a second (ping-pong, one session per client).
// One worker everywhere; edge and plain alternate for the given rounds, each first in every other
// one; the workers on core 0, the origins and the clients on core 1; medians of the rates and of
// the nginx worker's CPU time per connection, per MiB or per datagram.
// Usage: node bench/edge-stream.ts   (BENCH_SECONDS, BENCH_ROUNDS; needs gcc)
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { makeStream } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import { cpuSeconds, pinToCore, workersOf } from './nginx-cpu.ts';
import { edgeNginxFiles, type NginxFiles, plainNginxFiles, startPlainNginx } from './nginx-process.ts';
import { freePort, median, sidesInTurn, tempDir, wrkRounds } from './support.ts';
import { cBinary, onCore1 } from './tls-load.ts';

export interface StreamFigure {
  name: string;
  edge: number;
  plain: number;
  /** Median of the rounds' edge/plain ratios. */
  ratio: number;
  target: number;
  /** The nginx worker's CPU time per unit (connection, MiB, datagram), µs. */
  edgeCpuUs: number;
  plainCpuUs: number;
  unit: string;
}

const TARGET = 0.95;
const BIG = 16 * 1024 * 1024;
const MODULES = '/usr/lib/nginx/modules';

interface Load {
  count: number;
  bytes: number;
  failed: number;
}

export function streamLoad(mode: 'tcp' | 'udp', port: number, seconds: number, procs: number, request?: string): Load {
  const args = [mode, String(port), String(seconds), String(procs), ...(request ? [request] : [])];
  const [file, argv] = onCore1(cBinary('stream-load'), args);
  const output = execFileSync(file, argv, { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
  const field = (name: string) => Number(output.match(new RegExp(`${name}=([\\d.]+)`))?.[1]);
  if (field('failed') > 0) throw new Error(`stream-load ${mode}: ${field('failed')} failed on port ${port}`);
  return { count: field('count'), bytes: field('bytes'), failed: field('failed') };
}

interface StreamCase {
  name: string;
  unit: string;
  port: 'tcp' | 'bytes' | 'udp';
  /** Units done by one run. */
  run: (port: number, seconds: number) => number;
}

const CASES: StreamCase[] = [
  {
    name: 'TCP connections (origin answers a line and closes; 8 clients)',
    unit: 'connection',
    port: 'tcp',
    run: (port, seconds) => streamLoad('tcp', port, seconds, 8).count,
  },
  {
    name: 'TCP bytes (16 MiB downloads; 2 clients), MiB',
    unit: 'MiB',
    port: 'bytes',
    run: (port, seconds) => streamLoad('tcp', port, seconds, 2, 'GET /big HTTP/1.0\r\n\r\n').bytes / 1_048_576,
  },
  {
    name: 'UDP datagrams (ping-pong; 8 clients)',
    unit: 'datagram',
    port: 'udp',
    run: (port, seconds) => streamLoad('udp', port, seconds, 8).count,
  },
];

type Ports = Record<StreamCase['port'], number>;

export interface StreamServers {
  sides: Record<'edge' | 'plain', { ports: Ports; files: NginxFiles }>;
  /** The origins' pid file (their workers share core 1 with the clients). */
  originPidFile: string;
  close: () => Promise<void>;
}

/**
 * The origins (an nginx answering a line over TCP, "pong" over UDP, and a 16 MiB file over HTTP),
 * a plain nginx `stream` proxy to them, and an edge with three streams to the same origins.
 */
export async function startStreamServers(): Promise<StreamServers> {
  const files = tempDir('rampart-bench-stream-files-');
  chmodSync(files, 0o755);
  mkdirSync(join(files, 'www'));
  writeFileSync(join(files, 'www', 'big'), Buffer.alloc(BIG, 7));
  const origin = { tcp: await freePort(), http: await freePort(), udp: await freePort() };
  const load = `load_module ${MODULES}/ngx_stream_module.so;`;
  const originNginx = startPlainNginx(
    'stream-origin',
    `    access_log off;
    server { listen 127.0.0.1:${origin.http}; location / { root ${join(files, 'www')}; } }`,
    [
      load,
      `stream {
    server { listen 127.0.0.1:${origin.tcp}; return "origin\\n"; }
    server { listen 127.0.0.1:${origin.udp} udp; return "pong"; }
}`,
    ],
  );
  const plainPorts = { tcp: await freePort(), bytes: await freePort(), udp: await freePort() };
  // As an operator would write it, with a buffered session log as the edge keeps one.
  const plain = startPlainNginx('stream-plain', '    access_log off;', [
    load,
    `stream {
    log_format basic '$remote_addr [$time_local] $protocol $status $bytes_sent $bytes_received $session_time $upstream_addr';
    access_log logs/stream.log basic buffer=16k flush=1s;
    server { listen 127.0.0.1:${plainPorts.tcp}; proxy_pass 127.0.0.1:${origin.tcp}; proxy_connect_timeout 5s; }
    server { listen 127.0.0.1:${plainPorts.bytes}; proxy_pass 127.0.0.1:${origin.http}; proxy_connect_timeout 5s; }
    server { listen 127.0.0.1:${plainPorts.udp} udp; proxy_pass 127.0.0.1:${origin.udp}; proxy_timeout 20s; }
}`,
  ]);
  const edge = await createEdge({ proveTimeoutMs: 60_000, waf: false });
  const close = async () => {
    await edge.close();
    plain.stop();
    originNginx.stop();
    rmSync(files, { recursive: true, force: true });
  };
  try {
    const edgePorts = { tcp: await freePort(), bytes: await freePort(), udp: await freePort() };
    const to = (port: number) => [{ address: '127.0.0.1', port, weight: 1, backup: false }];
    const outcome = await edge.applier.apply(
      edge.snapshot({
        streams: [
          makeStream({ id: 1, listen_port: edgePorts.tcp, protocol: 'tcp', origins: to(origin.tcp) }),
          makeStream({ id: 2, listen_port: edgePorts.bytes, protocol: 'tcp', origins: to(origin.http) }),
          makeStream({ id: 3, listen_port: edgePorts.udp, protocol: 'udp', origins: to(origin.udp) }),
        ],
      }),
    );
    if (!outcome.applied || outcome.errors.length > 0) {
      throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
    }
    return {
      sides: {
        edge: { ports: edgePorts, files: edgeNginxFiles(edge) },
        plain: { ports: plainPorts, files: plainNginxFiles(plain) },
      },
      originPidFile: join(originNginx.dir, 'nginx.pid'),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function streamFigures(seconds: number, rounds: number): Promise<StreamFigure[]> {
  const servers = await startStreamServers();
  try {
    const sides = {
      edge: { ports: servers.sides.edge.ports, workers: workersOf(servers.sides.edge.files.pidFile) },
      plain: { ports: servers.sides.plain.ports, workers: workersOf(servers.sides.plain.files.pidFile) },
    };
    // As the proxy and TLS benches do: the workers under test on core 0, the origins with the clients on core 1.
    pinToCore([...sides.edge.workers, ...sides.plain.workers], 0);
    pinToCore(workersOf(servers.originPidFile), 1);
    return CASES.map((streamCase) => {
      const runs = { edge: [] as number[], plain: [] as number[], edgeCpu: [] as number[], plainCpu: [] as number[] };
      const ratios: number[] = [];
      for (let round = 0; round < rounds; round++) {
        for (const name of sidesInTurn(round)) {
          const side = sides[name];
          const before = cpuSeconds(side.workers);
          const units = streamCase.run(side.ports[streamCase.port], seconds);
          runs[name].push(units / seconds);
          runs[name === 'edge' ? 'edgeCpu' : 'plainCpu'].push(((cpuSeconds(side.workers) - before) * 1e6) / units);
        }
        ratios.push(runs.edge.at(-1)! / runs.plain.at(-1)!);
      }
      return {
        name: streamCase.name,
        edge: median(runs.edge),
        plain: median(runs.plain),
        ratio: median(ratios),
        target: TARGET,
        edgeCpuUs: median(runs.edgeCpu),
        plainCpuUs: median(runs.plainCpu),
        unit: streamCase.unit,
      };
    });
  } finally {
    await servers.close();
  }
}

export const streamLine = (figure: StreamFigure) =>
  `${figure.name}: edge ${figure.edge.toFixed(0)}/s (${figure.edgeCpuUs.toFixed(1)} µs CPU a ${figure.unit}), plain nginx ${figure.plain.toFixed(0)}/s (${figure.plainCpuUs.toFixed(1)} µs), ratio ${figure.ratio.toFixed(3)} (target ${figure.target}), CPU ratio plain/edge ${(figure.plainCpuUs / figure.edgeCpuUs).toFixed(3)}`;

if (import.meta.main) {
  const { seconds, rounds } = wrkRounds();
  console.log(
    `date: ${new Date().toISOString()}  node ${process.version}  ${seconds} s a run, ${rounds} alternating rounds, medians; load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  for (const figure of await streamFigures(seconds, rounds)) console.log(streamLine(figure));
}
