import type { EdgeRuleGroup, EdgeSite } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProtection, makeSite } from '../src/testing/snapshots.ts';
import { createEdge, fastPathModuleOrSkip, LUA_MARK, replaceIn, restartMarked, type TestEdge } from './support/edge.ts';
import { edgeRequest } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const MODULE = fastPathModuleOrSkip();

/** Rules read top to bottom: a PNG under /img/ takes the extension rule before the prefix one. */
const RULES: EdgeSite['cache_rules'] = [
  { match: 'prefix', value: '/static/', ttl: 300, ignore_query: true, honor_origin: false },
  { match: 'extension', value: 'png', ttl: 60, ignore_query: false, honor_origin: false },
  { match: 'prefix', value: '/img/', ttl: 600, ignore_query: false, honor_origin: false },
  { match: 'extension', value: 'js', ttl: 300, ignore_query: true, honor_origin: true },
];

/** A line of protection the module cannot run (a real regex), which never acts: its site stays in Lua. */
const LUA_ONLY: EdgeRuleGroup = {
  id: 1,
  rules: [
    {
      match_id: 1,
      filter_id: 1,
      conditions: [{ field: 'path', op: 'regex', values: ['^/never-(a|b)$'], negate: false }],
      filter: { name: 'js', type: 'js', valid_seconds: 600 },
      action: 'block',
      ban_seconds: 600,
    },
  ],
};

/**
 * Each path asked twice in a row, in this order, and what the module's twin answers: the status,
 * X-Cache-Status ("-" without one: no rule, `location /`), and the URL the origin received ("-"
 * when the cache answered).
 */
const EXPECTED: [string, string][] = [
  ['/static/a.css', '200 MISS /static/a.css | 200 HIT -'],
  // The rule ignores the query: the same object.
  ['/static/a.css?v=2', '200 HIT - | 200 HIT -'],
  ['/static', '200 - /static | 200 - /static'],
  // Prefixes compare case and all.
  ['/Static/a.css', '200 - /Static/a.css | 200 - /Static/a.css'],
  ['/a.png', '200 MISS /a.png | 200 HIT -'],
  // This rule keeps the query in the key.
  ['/a.png?x=1', '200 MISS /a.png?x=1 | 200 HIT -'],
  // Extensions compare in lower case, after a dot.
  ['/A.PNG', '200 MISS /A.PNG | 200 HIT -'],
  ['/b.PnG', '200 MISS /b.PnG | 200 HIT -'],
  ['/.png', '200 MISS /.png | 200 HIT -'],
  ['/png', '200 - /png | 200 - /png'],
  ['/apng', '200 - /apng | 200 - /apng'],
  ['/x.png.txt', '200 - /x.png.txt | 200 - /x.png.txt'],
  ['/img/a.png', '200 MISS /img/a.png | 200 HIT -'],
  ['/img/b.gif', '200 MISS /img/b.gif | 200 HIT -'],
  ['/app.js?v=1', '200 MISS /app.js?v=1 | 200 HIT -'],
  ['/app.js?v=2', '200 HIT - | 200 HIT -'],
  ['/dynamic', '200 - /dynamic | 200 - /dynamic'],
  // The normalized path is what the rules see.
  ['/x/../static/b.css', '200 MISS /x/../static/b.css | 200 HIT -'],
];

/**
 * A site with cache rules is routed by the edge's nginx module (nginx/ngx_http_rampart_module.c):
 * the first rule that matches the path sends the request to its cache location, as the Lua router
 * does. Two sites with the same rules, one the module routes and its twin the Lua router routes
 * (a line of protection only Lua runs, which never acts), must answer every request alike; the
 * live config is marked so that the origin sees which requests the Lua router routed.
 */
describe.skipIf(MODULE === null)('cache rules on the fast path in a real nginx', () => {
  let edge: TestEdge;
  let origin: Origin;

  beforeAll(async () => {
    edge = await createEdge({ waf: false });
    origin = await startOrigin('origin');
    const site = (id: number, domain: string, lua: boolean) =>
      makeSite({
        id,
        domains: [domain],
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        cache_rules: RULES,
        ...(lua ? { protection: makeProtection({ rule_group_id: 1 }) } : {}),
      });
    const applied = await edge.applier.apply(
      edge.snapshot({
        version: 1,
        sites: [site(31, 'cache.c.test', false), site(32, 'cache.lua.test', true)],
        protection: { rule_groups: [LUA_ONLY], acls: [], bans: [], unbans: [] },
      }),
    );
    expect(applied).toMatchObject({ applied: true, errors: [] });
    // The cache locations send the server's proxy headers: the mark goes there too.
    const header = 'proxy_set_header Host $rampart_host_header;';
    await restartMarked(edge, (conf) =>
      replaceIn(conf, header, `${header}\n        proxy_set_header X-Test-Router $rampart_test_router;`, true),
    );
  });

  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  /** One request: what the client saw, and whether the origin saw the Lua router's mark. */
  const ask = async (host: string, path: string) => {
    const before = origin.requests.length;
    const answer = await edgeRequest(edge.ports.http, { host, path });
    const reached = origin.requests.slice(before);
    const url = reached.length === 0 ? '-' : reached.map((request) => request.url).join(',');
    const cache = answer.headers['x-cache-status'] ?? '-';
    return {
      text: `${answer.status} ${cache} ${url}`,
      lua: reached.map((request) => request.headers[LUA_MARK] === 'lua'),
    };
  };

  it('sends each request where the Lua router would, without Lua: rule order, prefixes, extensions, queries', async () => {
    const module: string[] = [];
    const lua: string[] = [];
    const routed = { module: [] as boolean[], lua: [] as boolean[] };
    for (const [path] of EXPECTED) {
      const twice = async (host: string, into: string[], marks: boolean[]) => {
        const first = await ask(host, path);
        const second = await ask(host, path);
        into.push(`${first.text} | ${second.text}`);
        marks.push(...first.lua, ...second.lua);
      };
      await twice('cache.c.test', module, routed.module);
      await twice('cache.lua.test', lua, routed.lua);
    }
    expect(module).toEqual(EXPECTED.map(([, expected]) => expected));
    expect(lua).toEqual(module);
    // Every request that reached the origin: none through the Lua router for the module's twin,
    // all of them for the other.
    expect(routed.module.length).toBeGreaterThan(10);
    expect(routed.module.every((marked) => !marked)).toBe(true);
    expect(routed.lua.length).toBe(routed.module.length);
    expect(routed.lua.every((marked) => marked)).toBe(true);
  });

  it('keeps a variant for each Accept-Encoding when the origin varies on it, whoever routes the site', async () => {
    // The origin's body is the Accept-Encoding it received; the site has no gzip of its own.
    origin.respond((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', vary: 'Accept-Encoding' });
      res.end(`ae=${req.headers['accept-encoding'] ?? ''}`);
    });
    try {
      const variants = async (host: string) => {
        const seen: string[] = [];
        for (const encoding of ['gzip', 'identity', 'gzip']) {
          const answer = await edgeRequest(edge.ports.http, {
            host,
            path: '/static/vary.css',
            headers: { 'accept-encoding': encoding },
          });
          seen.push(`${answer.headers['x-cache-status']} ${answer.body}`);
        }
        return seen;
      };
      // A client that asks for no compression never gets the answer stored for a gzip client. (The
      // Lua router used to take the header off the request, so the cache saw none and served it.)
      expect(await variants('cache.c.test')).toEqual(['MISS ae=gzip', 'MISS ae=identity', 'HIT ae=gzip']);
      expect(await variants('cache.lua.test')).toEqual(['MISS ae=gzip', 'MISS ae=identity', 'HIT ae=gzip']);
    } finally {
      origin.respond(null);
    }
  });
});
