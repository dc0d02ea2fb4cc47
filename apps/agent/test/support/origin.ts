import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';

export interface OriginRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface Origin {
  name: string;
  port: number;
  requests: OriginRequest[];
  /** Overrides the answer for the next requests (status, headers, body). */
  respond: (handler: ((req: IncomingMessage, res: ServerResponse) => void) | null) => void;
  close: () => Promise<void>;
}

/**
 * A local origin on 127.0.0.1: answers JSON with its name, the Host it saw and the path, records
 * every request, and completes WebSocket handshakes (then echoes one frame back as-is).
 */
export async function startOrigin(
  name: string,
  options: { tls?: { cert: string; key: string } } = {},
): Promise<Origin> {
  const requests: OriginRequest[] = [];
  let custom: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    if (custom) return custom(req, res);
    const sni = (req.socket as TLSSocket).servername;
    const body = JSON.stringify({ origin: name, host: req.headers.host, url: req.url, sni, headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json', 'x-origin': name });
    res.end(body);
  };
  const server: Server = options.tls ? createTlsServer(options.tls, handler) : createServer(handler);
  server.on('upgrade', (req, socket) => {
    const key = String(req.headers['sec-websocket-key'] ?? '');
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket.on('data', (chunk: Buffer) => socket.write(chunk));
    socket.on('error', () => socket.destroy());
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    name,
    port,
    requests,
    respond: (handler) => {
      custom = handler;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
