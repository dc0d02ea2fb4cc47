import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface LocalRequest {
  port: number;
  path: string;
  /** Address to connect to; 127.0.0.1 unless the edge listens elsewhere. */
  address?: string;
  method?: string;
  headers?: Record<string, string>;
  /** HTTPS with this SNI name (the local edge's certificate is not verified). */
  servername?: string;
  timeoutMs?: number;
  body?: string;
}

export interface LocalAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One request to this node's own nginx on a fresh connection (no keep-alive, so a probe never
 * reuses a connection to an old worker). Null when nothing answers.
 */
export function localRequest(options: LocalRequest): Promise<LocalAnswer | null> {
  return new Promise((resolve) => {
    const common = {
      host: options.address ?? '127.0.0.1',
      port: options.port,
      path: options.path,
      method: options.method ?? 'GET',
      agent: false as const,
      timeout: options.timeoutMs ?? 5000,
      headers: { connection: 'close', ...options.headers },
    };
    const onResponse = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', () => resolve(null));
    };
    const req =
      options.servername === undefined
        ? httpRequest(common, onResponse)
        : httpsRequest({ ...common, servername: options.servername, rejectUnauthorized: false }, onResponse);
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end(options.body);
  });
}
