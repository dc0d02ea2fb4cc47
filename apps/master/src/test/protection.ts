import type { AccessLogLine, ConfigAnswer, EdgeSnapshot } from '@rampart/contracts';
import { expect } from 'vitest';
import { ADMIN_PASSWORD, type CallResult, type TestApp } from './test-app.ts';

// Fixtures of the protection API tests: sites, CC objects, an accepted edge node, its snapshot and logs.

export const ORIGIN = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };

/** The data of a call that must have succeeded. */
export function data<T = { id: number }>(result: CallResult): T {
  expect(result.body, JSON.stringify(result.body)).toMatchObject({ code: 0 });
  return result.body.data as T;
}

export const createSite = async (test: TestApp, token: string, domain: string, extra: Record<string, unknown> = {}) =>
  data(await test.call('POST', '/v1/sites', { token, body: { domains: [domain], origins: [ORIGIN], ...extra } })).id;

export const ipMatch = (name = 'bad ips', values = ['203.0.113.0/24']) => ({
  name,
  conditions: [{ field: 'ip', op: 'cidr', values }],
});
export const pathMatch = (name = 'login', value = '/login') => ({
  name,
  conditions: [{ field: 'path', op: 'prefix', values: [value] }],
});
export const rateFilter = (name = '100 a minute') => ({ name, type: 'rate', requests: 100, seconds: 60 });

export const createMatch = async (test: TestApp, token: string, body: object = ipMatch()) =>
  data(await test.call('POST', '/v1/cc-matchs', { token, body })).id;
export const createFilter = async (test: TestApp, token: string, body: object = rateFilter()) =>
  data(await test.call('POST', '/v1/cc-filters', { token, body })).id;
export const createGroup = async (test: TestApp, token: string, body: object) =>
  data(await test.call('POST', '/v1/cc-rules', { token, body })).id;

/** A user's rule group of one line (their own match and filter). */
export async function userGroup(test: TestApp, token: string, name = 'my rules', action = 'block') {
  const matchId = await createMatch(test, token, pathMatch(`${name} match`));
  const filterId = await createFilter(test, token, rateFilter(`${name} filter`));
  const id = await createGroup(test, token, {
    name,
    rules: [{ match_id: matchId, filter_id: filterId, action, ban_seconds: 300 }],
  });
  return { id, matchId, filterId };
}

export interface EdgeNode {
  credential: string;
  nodeId: number;
}

/** A node registered with the install token and accepted by the admin. */
export async function acceptedNode(test: TestApp): Promise<EdgeNode> {
  const admin = await test.login('admin', ADMIN_PASSWORD);
  const { install_token } = data<{ install_token: string }>(
    await test.call('GET', '/v1/nodes/install-token', { token: admin }),
  );
  const registered = data<{ pending_id: number; poll_secret: string }>(
    await test.call('POST', '/agent/v1/register', {
      body: { install_token, hostname: 'edge-1', ips: ['127.0.0.1'], agent_version: '0.1.0' },
    }),
  );
  await test.call('POST', '/v1/nodes', { token: admin, body: { pending_id: registered.pending_id, http_port: 18080 } });
  const poll = await test.app.inject({
    method: 'GET',
    url: `/agent/v1/register/${registered.pending_id}`,
    headers: { 'node-secret': registered.poll_secret },
  });
  const accepted = poll.json().data as { credential: string; node_id: number };
  return { credential: accepted.credential, nodeId: accepted.node_id };
}

export async function snapshotOf(test: TestApp, node: EdgeNode): Promise<EdgeSnapshot> {
  const answer = await test.app.inject({
    method: 'GET',
    url: '/agent/v1/config?version=0',
    headers: { 'node-token': node.credential },
  });
  const snapshot = (answer.json().data as ConfigAnswer).snapshot;
  if (!snapshot) throw new Error('no snapshot');
  return snapshot;
}

export const logLine = (fields: Partial<AccessLogLine>): AccessLogLine => ({
  time: Date.now() / 1000,
  site_id: 1,
  client_ip: '198.51.100.7',
  method: 'GET',
  host: 'www.example.com',
  uri: '/',
  status: 200,
  bytes_sent: 100,
  bytes_received: 50,
  request_time: 0.01,
  upstream_time: 0.005,
  cache_status: 'MISS',
  user_agent: 'test',
  referer: '',
  block_reason: '',
  ...fields,
});

export async function shipLogs(test: TestApp, node: EdgeNode, seq: number, access: AccessLogLine[]) {
  const response = await test.app.inject({
    method: 'POST',
    url: '/agent/v1/logs',
    headers: { 'node-token': node.credential },
    payload: { seq, access, stream: [] },
  });
  expect(response.json()).toMatchObject({ code: 0 });
}
