import type { AccessLogLine } from '@rampart/contracts';
import { acceptedNode, createSite, type EdgeNode, logLine, shipLogs } from '../../test/protection.ts';
import { addUser, type TestApp } from '../../test/test-app.ts';

// The monitor tests' world: alice with two sites in a group, bob with one, lines shipped by an edge.

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Midnight UTC five days ago: far inside the raw log's 31 days, and day buckets start there. */
export const dayStart = (now = Date.now()) => Math.floor(now / DAY_MS) * DAY_MS - 5 * DAY_MS;

export interface MonitorWorld {
  alice: string;
  bob: string;
  shop: number;
  blog: number;
  bobs: number;
  groupId: number;
  node: EdgeNode;
  t0: number;
  lines: AccessLogLine[];
}

/** Lines over two days and several hours, with every status class, hits, blocks and bob's line. */
export function fixtureLines(t0: number, sites: { shop: number; blog: number; bobs: number }): AccessLogLine[] {
  const at = (ms: number) => (t0 + ms) / 1000;
  const { shop, blog, bobs } = sites;
  return [
    logLine({ site_id: shop, time: at(0), uri: '/a', status: 200, bytes_sent: 1000, cache_status: 'HIT' }),
    logLine({ site_id: shop, time: at(30_000), uri: '/a', status: 200, bytes_sent: 1000, client_ip: '203.0.113.9' }),
    logLine({
      site_id: shop,
      time: at(61_000),
      uri: '/b',
      status: 301,
      bytes_sent: 10,
      referer: 'https://ref.example/',
    }),
    logLine({ site_id: shop, time: at(HOUR_MS + 5), uri: '/a', status: 404, bytes_sent: 20, client_ip: '203.0.113.9' }),
    logLine({
      site_id: shop,
      time: at(2 * HOUR_MS),
      uri: '/login',
      status: 403,
      bytes_sent: 5,
      client_ip: '2001:db8::7',
      block_reason: 'kind=acl;action=deny',
      country: 'IR',
    }),
    logLine({
      site_id: blog,
      time: at(2 * HOUR_MS + 1),
      uri: '/a',
      status: 502,
      bytes_sent: 7,
      host: 'blog.example.com',
    }),
    logLine({ site_id: blog, time: at(DAY_MS + 17), uri: '/c', status: 200, bytes_sent: 300, cache_status: 'HIT' }),
    logLine({ site_id: blog, time: at(DAY_MS + 59_999), uri: '/c', status: 204, bytes_sent: 0, user_agent: 'curl/8' }),
    logLine({ site_id: bobs, time: at(3 * 60_000), uri: '/bob', status: 200, bytes_sent: 99_999 }),
    logLine({ site_id: 0, time: at(4 * 60_000), uri: '/nobody', status: 421 }),
  ];
}

export async function monitorWorld(test: TestApp, t0 = dayStart()): Promise<MonitorWorld> {
  const alice = await addUser(test, 'alice');
  const bob = await addUser(test, 'bob');
  const group = await test.call('POST', '/v1/site-groups', { token: alice, body: { name: 'shops' } });
  const groupId = (group.body.data as { id: number }).id;
  const shop = await createSite(test, alice, 'shop.example.com', { group_id: groupId });
  const blog = await createSite(test, alice, 'blog.example.com');
  const bobs = await createSite(test, bob, 'bob.example.com');
  const node = await acceptedNode(test);
  const lines = fixtureLines(t0, { shop, blog, bobs });
  await shipLogs(test, node, 1, lines);
  return { alice, bob, shop, blog, bobs, groupId, node, t0, lines };
}
