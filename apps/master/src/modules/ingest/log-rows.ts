import type { AccessLogLine, StreamLogLine } from '@rampart/contracts';
import { ipKey } from '../../db/ip-key.ts';

// Access and stream lines as rows of the logs store: as objects (ClickHouse's JSONEachRow) and as
// flat value lists in the same column order (the SQL stores' prepared multi-row inserts).

/** A batch's client addresses as keys: a batch holds few distinct addresses, each keyed once. */
export function ipKeys(): (ip: string) => string | null {
  const keys = new Map<string, string | null>();
  return (ip) => {
    let key = keys.get(ip);
    if (key === undefined) {
      key = ipKey(ip);
      keys.set(ip, key);
    }
    return key;
  };
}

export const accessRow = (nodeId: number, line: AccessLogLine, keyOf: (ip: string) => string | null = ipKey) => ({
  node_id: nodeId,
  site_id: line.site_id,
  time_ms: Math.round(line.time * 1000),
  client_ip: line.client_ip,
  method: line.method,
  host: line.host,
  uri: line.uri,
  status: line.status,
  bytes_sent: line.bytes_sent,
  bytes_received: line.bytes_received,
  request_time_ms: Math.round(line.request_time * 1000),
  upstream_time_ms: line.upstream_time === null ? null : Math.round(line.upstream_time * 1000),
  cache_status: line.cache_status,
  user_agent: line.user_agent,
  referer: line.referer,
  block_reason: line.block_reason,
  client_ip_key: keyOf(line.client_ip),
});

export const streamRow = (nodeId: number, line: StreamLogLine, keyOf: (ip: string) => string | null = ipKey) => ({
  node_id: nodeId,
  stream_id: line.stream_id,
  time_ms: Math.round(line.time * 1000),
  client_ip: line.client_ip,
  protocol: line.protocol,
  status: line.status,
  bytes_sent: line.bytes_sent,
  bytes_received: line.bytes_received,
  session_time_ms: Math.round(line.session_time * 1000),
  upstream: line.upstream,
  client_ip_key: keyOf(line.client_ip),
});

export const NO_ACCESS: AccessLogLine = {
  time: 0,
  site_id: 0,
  client_ip: '',
  method: '',
  host: '',
  uri: '',
  status: 0,
  bytes_sent: 0,
  bytes_received: 0,
  request_time: 0,
  upstream_time: null,
  cache_status: '',
  user_agent: '',
  referer: '',
  block_reason: '',
};
export const NO_STREAM: StreamLogLine = {
  time: 0,
  stream_id: 0,
  client_ip: '',
  protocol: '',
  status: 0,
  bytes_sent: 0,
  bytes_received: 0,
  session_time: 0,
  upstream: '',
};

/** The values of `accessRow`, in its order, appended to `into` (no object a line). */
export function pushAccessValues(
  into: unknown[],
  nodeId: number,
  line: AccessLogLine,
  keyOf: (ip: string) => string | null,
): void {
  into.push(
    nodeId,
    line.site_id,
    Math.round(line.time * 1000),
    line.client_ip,
    line.method,
    line.host,
    line.uri,
    line.status,
    line.bytes_sent,
    line.bytes_received,
    Math.round(line.request_time * 1000),
    line.upstream_time === null ? null : Math.round(line.upstream_time * 1000),
    line.cache_status,
    line.user_agent,
    line.referer,
    line.block_reason,
    keyOf(line.client_ip),
  );
}

/** The values of `streamRow`, in its order, appended to `into`. */
export function pushStreamValues(
  into: unknown[],
  nodeId: number,
  line: StreamLogLine,
  keyOf: (ip: string) => string | null,
): void {
  into.push(
    nodeId,
    line.stream_id,
    Math.round(line.time * 1000),
    line.client_ip,
    line.protocol,
    line.status,
    line.bytes_sent,
    line.bytes_received,
    Math.round(line.session_time * 1000),
    line.upstream,
    keyOf(line.client_ip),
  );
}

export const ACCESS_COLUMNS = Object.keys(accessRow(0, NO_ACCESS)).length;
export const STREAM_COLUMNS = Object.keys(streamRow(0, NO_STREAM)).length;
