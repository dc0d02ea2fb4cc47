// What a stream costs nginx in its own code, counted under callgrind (bench/callgrind.ts) rather
// than timed: a TCP connection (the origin answers a line and closes) and a UDP datagram (ping-pong
// on 8 sessions) through the edge's stream against plain nginx's `stream` proxy, as
// bench/edge-stream.ts sets them up. The rate bench's UDP row swings by a tenth between runs; this
// count does not.
// Usage: node bench/stream-instructions.ts   (BENCH_SECONDS: seconds counted, default 10; needs
//   valgrind, gcc)

import { createSocket } from 'node:dgram';
import { createConnection } from 'node:net';
import { edgePlainLine, instructionsPerRequest, type RequestLoad } from './callgrind.ts';
import { startStreamServers, streamLoad } from './edge-stream.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** Whether `port` answers over `mode` within a second. */
function answers(mode: 'tcp' | 'udp', port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), 1000);
    const close: (() => void)[] = [];
    const done = (ok: boolean) => {
      clearTimeout(timer);
      for (const step of close) step();
      resolve(ok);
    };
    if (mode === 'udp') {
      const socket = createSocket('udp4');
      close.push(() => socket.close());
      socket.on('message', () => done(true));
      socket.on('error', () => done(false));
      socket.send('ping', port, '127.0.0.1');
    } else {
      const socket = createConnection({ port, host: '127.0.0.1' });
      close.push(() => socket.destroy());
      socket.on('data', () => done(true));
      socket.on('error', () => done(false));
    }
  });
}

const CASES = [
  { label: 'TCP connection (the origin answers a line and closes; 8 clients)', mode: 'tcp' as const, procs: 8 },
  { label: 'UDP datagram (ping-pong; 8 sessions)', mode: 'udp' as const, procs: 8 },
];

export async function streamInstructions(): Promise<string[]> {
  const servers = await startStreamServers();
  const lines: string[] = [];
  try {
    for (const streamCase of CASES) {
      const load: RequestLoad = {
        host: '',
        paths: [],
        ready: (port) => answers(streamCase.mode, port),
        drive: (port, phase) =>
          streamLoad(streamCase.mode, port, phase === 'counted' ? SECONDS : 3, streamCase.procs).count,
      };
      const count = async (side: 'edge' | 'plain') => {
        const { files, ports } = servers.sides[side];
        return instructionsPerRequest({ ...files, port: ports[streamCase.mode] }, load);
      };
      const edge = await count('edge');
      const plain = await count('plain');
      lines.push(edgePlainLine(streamCase.label, edge, plain));
    }
  } finally {
    await servers.close();
  }
  return lines;
}

if (import.meta.main) {
  console.log(`date: ${new Date().toISOString()}  callgrind, user-space instructions of nginx a unit`);
  for (const line of await streamInstructions()) console.log(line);
}
