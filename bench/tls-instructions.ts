// What a TLS handshake costs nginx in its own code, counted under callgrind (bench/callgrind.ts)
// rather than timed: the edge (the certificate chosen by SNI in Lua, 2 certificates loaded) against
// plain nginx with the same certificate in its config, as bench/edge-tls.ts sets them up. Each unit
// is one connection of tls-load.c: a handshake, one proxied request, the close. Then a request on a
// kept-alive HTTPS connection and one of HTTP/2's (h2load, as perf:check counts them). The rate
// bench's TLS rows swing by a tenth between runs; this count does not, and shows what the edge adds.
// Usage: node bench/tls-instructions.ts   (BENCH_SECONDS: seconds of handshakes counted, default 10;
//   needs valgrind, gcc, libssl-dev)
import { edgePlainLine, instructionsPerRequest, type RequestLoad } from './callgrind.ts';
import { startTlsServers } from './edge-tls.ts';
import { edgeNginxFiles } from './nginx-process.ts';
import { handshakes } from './tls-load.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export interface HandshakeCase {
  label: string;
  kind: 'ec' | 'rsa';
  sni: string;
  resume: boolean;
  tls: '1.2' | '1.3';
}

export const HANDSHAKES: HandshakeCase[] = [
  { label: 'full handshake, ECDSA P-256, TLS 1.3', kind: 'ec', sni: 'ecdsa.test', resume: false, tls: '1.3' },
  { label: 'full handshake, RSA 2048, TLS 1.3', kind: 'rsa', sni: 'rsa.test', resume: false, tls: '1.3' },
  { label: 'resumed handshake (ticket), ECDSA, TLS 1.3', kind: 'ec', sni: 'ecdsa.test', resume: true, tls: '1.3' },
  { label: 'resumed handshake, ECDSA, TLS 1.2', kind: 'ec', sni: 'ecdsa.test', resume: true, tls: '1.2' },
];

/** tls-load.c's connections as a callgrind load: 3 s to warm up, then `seconds` counted. */
export function handshakeLoad(handshake: HandshakeCase, seconds = SECONDS): RequestLoad {
  const drive = (port: number, phase: 'warm-up' | 'counted') => {
    const { requests, resumed } = handshakes({
      ...handshake,
      port,
      seconds: phase === 'counted' ? seconds : 3,
      procs: 2,
    });
    // Each client process's first handshake is a full one.
    if (handshake.resume && (resumed ?? 0) < requests - 2) {
      throw new Error(`only ${resumed} of ${requests} handshakes resumed on ${port}`);
    }
    return requests;
  };
  return { host: handshake.sni, paths: ['/'], tls: true, drive };
}

/** A request on a kept-alive HTTPS connection, ECDSA, TLS 1.3 (here and in perf:check). */
export const HTTPS_KEPT_ALIVE: RequestLoad = { host: 'ecdsa.test', paths: ['/'], tls: true };
/** The same over HTTP/2, ten streams a connection. */
export const HTTP2_REQUESTS: RequestLoad = { ...HTTPS_KEPT_ALIVE, http2: true };

/** Requests on connections already made: the kept-alive and HTTP/2 rows. */
const REQUESTS: [string, RequestLoad][] = [
  ['HTTPS request on a kept-alive connection, ECDSA, TLS 1.3', HTTPS_KEPT_ALIVE],
  ['HTTP/2 request, ten streams a connection, ECDSA, TLS 1.3', HTTP2_REQUESTS],
];

/** Each case's instructions a connection (a request, for REQUESTS) on the edge and on plain nginx. */
export async function handshakeInstructions(): Promise<string[]> {
  const tls = await startTlsServers();
  const lines: string[] = [];
  try {
    for (const handshake of HANDSHAKES) {
      const load = handshakeLoad(handshake);
      const edge = await instructionsPerRequest({ ...edgeNginxFiles(tls.edge), port: tls.edge.ports.https }, load);
      const plain = await instructionsPerRequest(
        { ...tls.plainFiles, port: tls.sides.plain.port(handshake.kind) },
        load,
      );
      lines.push(edgePlainLine(handshake.label, edge, plain, 'connections'));
    }
    for (const [label, load] of REQUESTS) {
      const edge = await instructionsPerRequest({ ...edgeNginxFiles(tls.edge), port: tls.edge.ports.https }, load);
      const plain = await instructionsPerRequest({ ...tls.plainFiles, port: tls.plainEcPort }, load);
      lines.push(edgePlainLine(label, edge, plain, 'requests'));
    }
  } finally {
    await tls.close();
  }
  return lines;
}

if (import.meta.main) {
  console.log(
    `date: ${new Date().toISOString()}  callgrind, user-space instructions of nginx a connection or a request`,
  );
  for (const line of await handshakeInstructions()) console.log(line);
}
