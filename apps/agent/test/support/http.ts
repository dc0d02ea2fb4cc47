import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { PeerCertificate, TLSSocket } from 'node:tls';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The certificate the edge presented (HTTPS only). */
  cert?: PeerCertificate;
}

export interface RequestOptions {
  host: string;
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  /** HTTPS with SNI = host. */
  tls?: boolean;
  body?: string;
  /** The edge's address (127.0.0.1 unless set). */
  address?: string;
}

/** One request to the edge on 127.0.0.1 with the given Host (and SNI for HTTPS); a fresh connection each time. */
export function edgeRequest(port: number, options: RequestOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const common = {
      host: options.address ?? '127.0.0.1',
      port,
      path: options.path ?? '/',
      method: options.method ?? 'GET',
      agent: false as const,
      timeout: 10_000,
      headers: { host: options.host, connection: 'close', ...options.headers },
    };
    const onResponse = (res: import('node:http').IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const cert = options.tls ? (res.socket as TLSSocket).getPeerCertificate?.() : undefined;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          cert,
        });
      });
      res.on('error', reject);
    };
    const req = options.tls
      ? httpsRequest({ ...common, servername: options.host, rejectUnauthorized: false }, onResponse)
      : httpRequest(common, onResponse);
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Repeats `check` until it passes or `timeoutMs` runs out (then throws its last error). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
