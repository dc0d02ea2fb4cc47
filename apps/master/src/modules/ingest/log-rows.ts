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
  country: line.country ?? '',
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

/** The values of `accessRow`, in its order, written into `into` from `at` (no object a line). */
export function writeAccessValues(
  into: unknown[],
  at: number,
  nodeId: number,
  line: AccessLogLine,
  keyOf: (ip: string) => string | null,
): void {
  into[at] = nodeId;
  into[at + 1] = line.site_id;
  into[at + 2] = Math.round(line.time * 1000);
  into[at + 3] = line.client_ip;
  into[at + 4] = line.method;
  into[at + 5] = line.host;
  into[at + 6] = line.uri;
  into[at + 7] = line.status;
  into[at + 8] = line.bytes_sent;
  into[at + 9] = line.bytes_received;
  into[at + 10] = Math.round(line.request_time * 1000);
  into[at + 11] = line.upstream_time === null ? null : Math.round(line.upstream_time * 1000);
  into[at + 12] = line.cache_status;
  into[at + 13] = line.user_agent;
  into[at + 14] = line.referer;
  into[at + 15] = line.block_reason;
  into[at + 16] = keyOf(line.client_ip);
  into[at + 17] = line.country ?? '';
}

/** The values of `streamRow`, in its order, written into `into` from `at`. */
export function writeStreamValues(
  into: unknown[],
  at: number,
  nodeId: number,
  line: StreamLogLine,
  keyOf: (ip: string) => string | null,
): void {
  into[at] = nodeId;
  into[at + 1] = line.stream_id;
  into[at + 2] = Math.round(line.time * 1000);
  into[at + 3] = line.client_ip;
  into[at + 4] = line.protocol;
  into[at + 5] = line.status;
  into[at + 6] = line.bytes_sent;
  into[at + 7] = line.bytes_received;
  into[at + 8] = Math.round(line.session_time * 1000);
  into[at + 9] = line.upstream;
  into[at + 10] = keyOf(line.client_ip);
}

export const ACCESS_COLUMNS = Object.keys(accessRow(0, NO_ACCESS)).length;
export const STREAM_COLUMNS = Object.keys(streamRow(0, NO_STREAM)).length;
