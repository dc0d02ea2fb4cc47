import type { NodeMetricsBody, SiteMinute, StreamLogLine } from '@rampart/contracts';
import { expect } from 'vitest';
import { acceptedNode, data, type EdgeNode, ORIGIN } from '../../test/protection.ts';
import { addUser, type TestApp } from '../../test/test-app.ts';
import { dayStart } from './monitor-fixture.ts';

// The stream and node tests' world: alice with two streams (one in a group), bob with one, stream
// lines shipped by an edge, and that edge's metrics reports.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export const streamLine = (fields: Partial<StreamLogLine> & Pick<StreamLogLine, 'stream_id'>): StreamLogLine => ({
  time: Date.now() / 1000,
  client_ip: '198.51.100.7',
  // As nginx's $protocol writes it.
  protocol: 'TCP',
  status: 200,
  bytes_sent: 1000,
  bytes_received: 100,
  session_time: 1.5,
  upstream: '127.0.0.1:8081',
  ...fields,
});

export async function shipStreamLines(test: TestApp, node: EdgeNode, seq: number, stream: StreamLogLine[]) {
  const response = await test.app.inject({
    method: 'POST',
    url: '/agent/v1/logs',
    headers: { 'node-token': node.credential },
    payload: { seq, access: [], stream },
  });
  expect(response.json()).toMatchObject({ code: 0 });
}

export const metricsReport = (fields: Partial<NodeMetricsBody> & Pick<NodeMetricsBody, 'time'>): NodeMetricsBody => ({
  cpu_percent: 10,
  memory_used_bytes: 1000,
  memory_total_bytes: 4000,
  load1: 0.5,
  connections: 4,
  bytes_in: 100,
  bytes_out: 900,
  sites: [],
  ...fields,
});

export async function sendMetrics(test: TestApp, node: EdgeNode, report: NodeMetricsBody) {
  const response = await test.app.inject({
    method: 'POST',
    url: '/agent/v1/metrics',
    headers: { 'node-token': node.credential },
    payload: report,
  });
  expect(response.json()).toMatchObject({ code: 0 });
}

export const siteMinute = (fields: Partial<SiteMinute> & Pick<SiteMinute, 'site_id' | 'minute'>): SiteMinute => ({
  requests: 1,
  bytes_in: 10,
  bytes_out: 100,
  status_2xx: 1,
  status_3xx: 0,
  status_4xx: 0,
  status_5xx: 0,
  cache_hits: 0,
  ...fields,
});

export interface StreamWorld {
  alice: string;
  bob: string;
  db: number;
  game: number;
  bobs: number;
  groupId: number;
  node: EdgeNode;
  t0: number;
  lines: StreamLogLine[];
}

/** Lines over two days: alice's db (grouped) and game streams, bob's one, a failed connection, a UDP session. */
export function fixtureStreamLines(t0: number, streams: { db: number; game: number; bobs: number }): StreamLogLine[] {
  const at = (ms: number) => (t0 + ms) / 1000;
  const { db, game, bobs } = streams;
  return [
    streamLine({ stream_id: db, time: at(0), bytes_received: 100, bytes_sent: 1000, session_time: 2 }),
    streamLine({ stream_id: db, time: at(30_000), client_ip: '203.0.113.9', bytes_received: 50, bytes_sent: 500 }),
    streamLine({ stream_id: db, time: at(61_000), status: 502, bytes_received: 0, bytes_sent: 0, session_time: 0 }),
    streamLine({ stream_id: db, time: at(HOUR_MS + 5), client_ip: '2001:db8::7', bytes_sent: 70 }),
    streamLine({ stream_id: game, time: at(2 * HOUR_MS), protocol: 'UDP', client_ip: '203.0.113.9', bytes_sent: 7 }),
    streamLine({ stream_id: game, time: at(DAY_MS + 17), protocol: 'UDP', bytes_sent: 300 }),
    streamLine({ stream_id: bobs, time: at(3 * 60_000), client_ip: '192.0.2.55', bytes_sent: 99_999 }),
  ];
}

export async function streamWorld(test: TestApp, t0 = dayStart()): Promise<StreamWorld> {
  const alice = await addUser(test, 'alice');
  const bob = await addUser(test, 'bob');
  const groupId = data(await test.call('POST', '/v1/stream-groups', { token: alice, body: { name: 'databases' } })).id;
  const stream = async (token: string, listen_port: number, protocol: string, extra: object = {}) =>
    data(
      await test.call('POST', '/v1/streams', {
        token,
        body: { listen_port, protocol, origins: [ORIGIN], ...extra },
      }),
    ).id;
  const db = await stream(alice, 3306, 'tcp', { group_id: groupId });
  const game = await stream(alice, 27015, 'udp');
  const bobs = await stream(bob, 2222, 'tcp');
  const node = await acceptedNode(test);
  const lines = fixtureStreamLines(t0, { db, game, bobs });
  await shipStreamLines(test, node, 1, lines);
  return { alice, bob, db, game, bobs, groupId, node, t0, lines };
}
