import type { EdgeProtection, EdgeRuleGroup, EdgeSite } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProtection, makeSite } from '../src/testing/snapshots.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

// A cache hit is answered by nginx from the cache after the router: these pin that the router's
// protection still runs first on cached paths (ACL, bans, rate rules, challenges), and that the
// cache status header nginx adds by itself is the same for every kind of site.

const guard = makeProtection;

const under = (prefix: string) => [{ field: 'path' as const, op: 'prefix' as const, values: [prefix], negate: false }];

const groups: EdgeRuleGroup[] = [
  {
    id: 1,
    rules: [
      {
        match_id: 11,
        filter_id: 21,
        conditions: under('/static/rated/'),
        filter: { name: 'rate', type: 'rate', requests: 3, seconds: 60, per: 'ip' },
        action: 'ban',
        ban_seconds: 60,
      },
    ],
  },
  {
    id: 2,
    rules: [
      {
        match_id: 12,
        filter_id: 22,
        conditions: under('/'),
        filter: { name: 'js', type: 'js', valid_seconds: 600 },
        action: 'block',
        ban_seconds: 600,
      },
    ],
  },
];

describe('protection of cached responses', () => {
  let edge: TestEdge;
  let origin: Origin;
  let version = 1;

  const cachedSite = (id: number, domain: string, extra: Partial<EdgeSite> = {}) =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
      cache_rules: [{ match: 'prefix', value: '/static/', ttl: 600, ignore_query: false, honor_origin: false }],
      ...extra,
    });

  const apply = async (options: { attack?: boolean; bans?: EdgeProtection['bans'] } = {}) => {
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: ++version,
        sites: [
          cachedSite(1, 'open.test'),
          cachedSite(2, 'decorated.test', { response_headers: [{ name: 'X-Site', value: 'decorated' }] }),
          cachedSite(3, 'guarded.test', { protection: guard({ rule_group_id: 1, attack_rule_group_id: 2 }) }),
          cachedSite(4, 'attack.test', {
            protection: guard({ rule_group_id: 1, attack_rule_group_id: 2, under_attack: options.attack === true }),
          }),
        ],
        protection: {
          rule_groups: groups,
          acls: [
            {
              site_id: 3,
              entries: [
                {
                  action: 'deny',
                  condition: { field: 'user_agent', op: 'contains', values: ['BadBot'], negate: false },
                },
              ],
            },
          ],
          bans: options.bans ?? [],
          unbans: [],
        },
      }),
    );
    expect(outcome.error).toBe('');
    expect(outcome).toMatchObject({ applied: true, errors: [] });
  };

  beforeAll(async () => {
    edge = await createEdge();
    origin = await startOrigin('origin');
    await apply();
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  const get = (host: string, path: string, headers: Record<string, string> = {}) =>
    edgeRequest(edge.ports.http, { host, path, headers });

  /** Fetches the path until it is a cache HIT (the first answer fills the cache). */
  const warm = async (host: string, path: string) => {
    expect((await get(host, path)).headers['x-cache-status']).toBe('MISS');
    const hit = await get(host, path);
    expect(hit.status).toBe(200);
    expect(hit.headers['x-cache-status']).toBe('HIT');
  };

  it('marks hits the same way for sites with and without response headers of their own', async () => {
    await warm('open.test', '/static/a.css');
    await warm('decorated.test', '/static/a.css');
    const decorated = await get('decorated.test', '/static/a.css');
    expect(decorated.headers['x-site']).toBe('decorated');
    // The origin's own cache status is not passed on beside the edge's.
    origin.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/css', 'x-cache-status': 'FROM-ORIGIN' });
      res.end('body');
    });
    try {
      const fresh = await get('open.test', '/static/origin-header.css');
      expect(fresh.headers['x-cache-status']).toBe('MISS');
    } finally {
      origin.respond(null);
    }
  });

  it('an ACL deny entry refuses a cached path without reaching the origin', async () => {
    await warm('guarded.test', '/static/page.css');
    const before = origin.requests.length;
    const denied = await get('guarded.test', '/static/page.css', { 'user-agent': 'BadBot/1.0' });
    expect(denied.status).toBe(403);
    expect(denied.headers['x-cache-status']).toBeUndefined();
    expect(origin.requests.length).toBe(before);
    expect((await get('guarded.test', '/static/page.css')).headers['x-cache-status']).toBe('HIT');
  });

  it('a rate rule counts cache hits and bans, and a ban from the master stops a cached path', async () => {
    await warm('guarded.test', '/static/rated/a.js'); // two requests of the three allowed
    expect((await get('guarded.test', '/static/rated/a.js')).status).toBe(200);
    const banned = await get('guarded.test', '/static/rated/a.js');
    expect(banned.status).toBe(403);
    expect(banned.body).toContain('Too many requests');
    // The node's ban covers the site's other cached paths too.
    expect((await get('guarded.test', '/static/page.css')).status).toBe(403);

    await warm('open.test', '/static/banned.css');
    await apply({ bans: [{ site_id: 0, cidr: '127.0.0.1', expires_at: Math.floor(Date.now() / 1000) + 60 }] });
    expect((await get('open.test', '/static/banned.css')).status).toBe(403);
    await apply();
    expect((await get('open.test', '/static/banned.css')).headers['x-cache-status']).toBe('HIT');
  });

  it('attack mode challenges a cached path instead of serving it', async () => {
    await warm('attack.test', '/static/app.js');
    await apply({ attack: true });
    const challenged = await get('attack.test', '/static/app.js');
    expect(challenged.status).toBe(503);
    expect(challenged.headers['x-cache-status']).toBeUndefined();
    await apply();
    expect((await get('attack.test', '/static/app.js')).headers['x-cache-status']).toBe('HIT');
  });
});
