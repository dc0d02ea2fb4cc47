import type { AccessLogLine, NodeMetricsBody, StreamLogLine } from '@rampart/contracts';
import { adminToken, callApi } from './api.ts';
import type { Suite } from './suite.ts';

/** An edge node the admin accepted, as the agent would register it: its credential ships logs. */
export async function acceptedNodeCredential(suite: Suite, hostname: string): Promise<string> {
  const { baseUrl, adminPassword } = suite.master();
  const admin = await adminToken(baseUrl, adminPassword);
  const { install_token } = await callApi<{ install_token: string }>(baseUrl, 'GET', '/v1/nodes/install-token', {
    token: admin,
  });
  const registered = await callApi<{ pending_id: number; poll_secret: string }>(baseUrl, 'POST', '/agent/v1/register', {
    body: { install_token, hostname, ips: ['127.0.0.1'], agent_version: '0.1.0' },
  });
  await callApi(baseUrl, 'POST', '/v1/nodes', {
    token: admin,
    body: { pending_id: registered.pending_id, http_port: 18080 },
  });
  const poll = await fetch(`${baseUrl}/agent/v1/register/${registered.pending_id}`, {
    headers: { 'node-secret': registered.poll_secret },
  });
  return ((await poll.json()) as { data: { credential: string } }).data.credential;
}

/** Ships access log lines through the ingest API, as the agent does (stored once per seq). */
export async function shipAccessLines(suite: Suite, credential: string, seq: number, access: AccessLogLine[]) {
  const response = await fetch(`${suite.master().baseUrl}/agent/v1/logs`, {
    method: 'POST',
    headers: { 'node-token': credential, 'content-type': 'application/json' },
    body: JSON.stringify({ seq, access, stream: [] }),
  });
  const body = (await response.json()) as { code: number | string; msg: string };
  if (body.code !== 0) throw new Error(`ingest: ${body.code} ${body.msg}`);
}

export const accessLine = (fields: Partial<AccessLogLine> & Pick<AccessLogLine, 'site_id'>): AccessLogLine => ({
  time: Date.now() / 1000,
  client_ip: '198.51.100.7',
  method: 'GET',
  host: 'www.example.com',
  uri: '/',
  status: 200,
  bytes_sent: 1000,
  bytes_received: 200,
  request_time: 0.01,
  upstream_time: 0.005,
  cache_status: 'MISS',
  user_agent: 'Mozilla/5.0',
  referer: '',
  block_reason: '',
  ...fields,
});

/** Ships stream log lines (one per ended connection) through the ingest API, as the agent does. */
export async function shipStreamLines(suite: Suite, credential: string, seq: number, stream: StreamLogLine[]) {
  const response = await fetch(`${suite.master().baseUrl}/agent/v1/logs`, {
    method: 'POST',
    headers: { 'node-token': credential, 'content-type': 'application/json' },
    body: JSON.stringify({ seq, access: [], stream }),
  });
  const body = (await response.json()) as { code: number | string; msg: string };
  if (body.code !== 0) throw new Error(`ingest: ${body.code} ${body.msg}`);
}

export const streamLine = (fields: Partial<StreamLogLine> & Pick<StreamLogLine, 'stream_id'>): StreamLogLine => ({
  time: Date.now() / 1000,
  client_ip: '198.51.100.7',
  protocol: 'TCP',
  status: 200,
  bytes_sent: 5000,
  bytes_received: 500,
  session_time: 2,
  upstream: '127.0.0.1:3306',
  ...fields,
});

/** Sends a node's metrics report, as the agent does every few seconds. */
export async function sendNodeMetrics(suite: Suite, credential: string, report: NodeMetricsBody) {
  const response = await fetch(`${suite.master().baseUrl}/agent/v1/metrics`, {
    method: 'POST',
    headers: { 'node-token': credential, 'content-type': 'application/json' },
    body: JSON.stringify(report),
  });
  const body = (await response.json()) as { code: number | string; msg: string };
  if (body.code !== 0) throw new Error(`metrics: ${body.code} ${body.msg}`);
}
