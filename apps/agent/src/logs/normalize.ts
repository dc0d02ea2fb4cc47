import type { AccessLogLine, StreamLogLine } from '@rampart/contracts';

/**
 * nginx log lines turned into the exact contract shapes: ids and upstream times parsed, strings
 * cut to the contract's limits, so one odd request can never make the master refuse a batch.
 */
export function parseAccessLine(text: string): AccessLogLine | null {
  return parseAccessRecord(text)?.line ?? null;
}

/** An access line and the WAF transaction id the edge gave the request ('' when the WAF is off). */
export function parseAccessRecord(text: string): { line: AccessLogLine; wafTx: string } | null {
  const raw = parseObject(text);
  if (!raw) return null;
  return { line: accessLine(raw), wafTx: str(raw.waf_tx, 128) };
}

function accessLine(raw: Record<string, unknown>): AccessLogLine {
  const line: AccessLogLine = {
    time: num(raw.time),
    site_id: int(raw.site_id),
    client_ip: str(raw.client_ip, 64),
    method: str(raw.method, 16),
    host: str(raw.host, 255),
    uri: str(raw.uri, 4096),
    status: int(raw.status),
    bytes_sent: int(raw.bytes_sent),
    bytes_received: int(raw.bytes_received),
    request_time: num(raw.request_time),
    upstream_time: upstreamTime(raw.upstream_time),
    cache_status: str(raw.cache_status, 16),
    user_agent: str(raw.user_agent, 1024),
    referer: str(raw.referer, 2048),
    block_reason: str(raw.block_reason, 256),
  };
  // Only nodes with a GeoIP database log a country. Set after the literal: a spread in it copies
  // the line's properties one by one, a cost on every line of every batch.
  if (raw.country !== undefined) line.country = str(raw.country, 2);
  return line;
}

export function parseStreamLine(text: string): StreamLogLine | null {
  const raw = parseObject(text);
  if (!raw) return null;
  return {
    time: num(raw.time),
    stream_id: int(raw.stream_id),
    client_ip: str(raw.client_ip, 64),
    protocol: str(raw.protocol, 8),
    status: int(raw.status),
    bytes_sent: int(raw.bytes_sent),
    bytes_received: int(raw.bytes_received),
    session_time: num(raw.session_time),
    upstream: str(raw.upstream, 255),
  };
}

/**
 * `$upstream_response_time` is empty or "-" without an upstream, and a comma (or " : ") separated
 * list when nginx tried several; the total is what the request spent upstream.
 */
export function upstreamTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  // The usual case, one upstream: no list to split.
  if (!value.includes(',') && !value.includes(':')) {
    const single = Number.parseFloat(value);
    return Number.isFinite(single) ? Math.round(single * 1000) / 1000 : null;
  }
  const parts = value
    .split(/[,:]/)
    .map((part) => Number.parseFloat(part.trim()))
    .filter(Number.isFinite);
  if (parts.length === 0) return null;
  return Math.round(parts.reduce((sum, part) => sum + part, 0) * 1000) / 1000;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function num(value: unknown): number {
  const parsed = typeof value === 'number' ? value : Number.parseFloat(String(value ?? ''));
  return Number.isFinite(parsed) ? parsed : 0;
}

function int(value: unknown): number {
  const parsed = Math.trunc(num(value));
  return Number.isSafeInteger(parsed) ? parsed : 0;
}

function str(value: unknown, max: number): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
  return text.length > max ? text.slice(0, max) : text;
}
