import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Below the kernel's range for outgoing connections, and above the well-known services. */
const LOWEST = 10_000;

/**
 * The first port of the kernel's range for outgoing connections. A port from that range can be
 * taken as the source port of any connection (a database pool's, a test client's) between the
 * moment it is found free and the moment nginx binds it; then nginx cannot listen on it.
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isSafeInteger(low) ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const tcpFree = (port: number) =>
  new Promise<number | null>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : null));
    });
  });

const udpFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });

/**
 * A port that is free on 127.0.0.1 for both TCP and UDP right now, for a server another process
 * binds later: picked at random below the range of outgoing connections (where no connection can
 * take it meanwhile), or by the kernel when that range leaves no room below it.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (;;) {
    const wanted = low > LOWEST + 1000 ? LOWEST + Math.floor(Math.random() * (low - LOWEST)) : 0;
    const port = await tcpFree(wanted);
    if (port !== null && port > 0 && (await udpFree(port))) return port;
  }
}
