// Node.js only (sockets): a subpath of its own, never in the index the dashboard imports. Shared by
// the master's checker and the agents' prober, which must judge an IP alike.
import { request } from 'node:http';
import { connect, isIPv6 } from 'node:net';
import type { NodeMonitorSettings } from './health.ts';

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

export type ProbeSettings = Pick<
  NodeMonitorSettings,
  'probe' | 'path' | 'expected_status' | 'host' | 'timeout_seconds'
>;

/** Probes one node IP on a port: an HTTP GET answering the expected status, or a TCP connect. */
export function probeIp(ip: string, port: number, settings: ProbeSettings, signal?: AbortSignal): Promise<ProbeResult> {
  const timeoutMs = Math.round(settings.timeout_seconds * 1000);
  return settings.probe === 'tcp'
    ? probeTcp(ip, port, timeoutMs, signal)
    : probeHttp(ip, port, settings, timeoutMs, signal);
}

function probeTcp(ip: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = connect({ host: ip, port, timeout: timeoutMs, ...(signal && { signal }) });
    const done = (result: ProbeResult) => {
      socket.destroy();
      resolve(result);
    };
    socket.once('connect', () => done({ ok: true, detail: 'connected' }));
    socket.once('timeout', () => done({ ok: false, detail: `no connection within ${timeoutMs} ms` }));
    socket.once('error', (error: NodeJS.ErrnoException) => done({ ok: false, detail: error.code ?? error.message }));
  });
}

function probeHttp(
  ip: string,
  port: number,
  settings: ProbeSettings,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const host = isIPv6(ip) ? `[${ip}]` : ip;
    const req = request({
      host: ip,
      port,
      path: settings.path,
      method: 'GET',
      agent: false,
      headers: { host: settings.host || `${host}:${port}`, 'user-agent': 'rampart-health', connection: 'close' },
      ...(signal && { signal }),
    });
    // The whole exchange, not only the connect, must fit in the timeout.
    const timer = setTimeout(() => done({ ok: false, detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
    req.once('response', (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      done(
        status === settings.expected_status
          ? { ok: true, detail: `HTTP ${status}` }
          : { ok: false, detail: `HTTP ${status}, expected ${settings.expected_status}` },
      );
    });
    req.once('error', (error: NodeJS.ErrnoException) => done({ ok: false, detail: error.code ?? error.message }));
    req.end();
  });
}
