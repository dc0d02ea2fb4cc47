import { readFile } from 'node:fs/promises';
import type { Condition, EdgeBan, EdgeProtection, EdgeRuleGroup, EdgeSite, SiteProtection } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localRequest } from '../src/local-http.ts';
import { makeProtection, makeSite } from '../src/testing/snapshots.ts';
import { createEdge, fastPathModuleOrSkip, LUA_MARK, replaceIn, restartMarked, type TestEdge } from './support/edge.ts';
import { type Answer, edgeRequest, eventually, type RequestOptions } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const MODULE = fastPathModuleOrSkip();

type Rule = EdgeRuleGroup['rules'][number];
type Filter = Rule['filter'];
type Acl = EdgeProtection['acls'][number];
type Ask = Pick<RequestOptions, 'path' | 'method' | 'headers'> & { www?: boolean };

/** The client's address: every request of this file comes from it. */
const CLIENT = '127.0.0.1';

const cond = (
  field: Condition['field'],
  op: Condition['op'],
  values: string[],
  more: Pick<Condition, 'header'> & { negate?: boolean } = {},
): Condition => ({ field, op, values, negate: false, ...more });
const header = (name: string, op: Condition['op'], values: string[], negate = false) =>
  cond('header', op, values, { header: name, negate });
const EVERY = [cond('path', 'prefix', ['/'])];
/** True of every request, and a regex the module cannot run: a site with it stays in the Lua router. */
const ONLY_LUA = cond('path', 'regex', ['^/']);

const rate = (requests: number, per: 'ip' | 'ip_url' = 'ip'): Filter => ({
  name: `${requests} a minute`,
  type: 'rate',
  requests,
  seconds: 60,
  per,
});
const JS: Filter = { name: 'js', type: 'js', valid_seconds: 600 };
const REDIRECT: Filter = { name: '302', type: 'redirect', valid_seconds: 600 };

/** A rule group; the match and filter ids of line n of group g are both 10 g + n. */
const group = (id: number, ...lines: [Condition[], Filter, Rule['action']?][]): EdgeRuleGroup => ({
  id,
  rules: lines.map(([conditions, filter, action = 'block'], i) => ({
    match_id: id * 10 + i + 1,
    filter_id: id * 10 + i + 1,
    conditions,
    filter,
    action,
    ban_seconds: 600,
  })),
});
/** What the access log says of line n of group g, as protect.lua writes it. */
const line = (g: number, n: number) => `group=${g};match=${g * 10 + n};filter=${g * 10 + n}`;

const denyAll = (siteId: number, ranges: string[]): Acl => ({
  site_id: siteId,
  entries: ranges.map((range) => ({ action: 'deny' as const, condition: cond('ip', 'cidr', [range]) })),
});

/** A blocklist the client is in none of: IPv4 ranges of several prefix lengths, and IPv6 ones. */
const BLOCKLIST = [
  ...Array.from({ length: 300 }, (_, i) => {
    const bits = [32, 24, 16, 28][i % 4]!;
    return `${10 + (i % 100)}.${(i * 7) % 256}.${(i * 13) % 256}.${bits === 32 ? (i * 3) % 256 : 0}/${bits}`;
  }),
  '2001:db8::/32',
  '::1',
];

/**
 * Conditions the module runs itself (conditions.lua's `plan`), each on a site of its own with one
 * line: a JS challenge for the requests they select. Its twin has the same conditions and ONLY_LUA,
 * so the Lua router runs it; both must answer every request of REQUESTS alike.
 */
const PAIRS: Record<string, Condition[]> = {
  'path-equals': [cond('path', 'equals', ['/a', '/b/c'])],
  'path-prefix': [cond('path', 'prefix', ['/adm', '/x'])],
  'path-contains': [cond('path', 'contains', ['min', 'c?'])],
  'path-words': [cond('path', 'regex', ['(?i)(admin|wp-login)'])],
  'path-words-case': [cond('path', 'regex', ['Admin|login'])],
  'path-words-two': [cond('path', 'regex', ['(?:admin)', 'b/c'])],
  'path-words-upper': [cond('path', 'regex', ['(?i)ADMIN'])],
  'query-equals': [cond('query', 'equals', ['a=1'])],
  'query-contains': [cond('query', 'contains', ['debug'])],
  'query-words': [cond('query', 'regex', ['(?i)(union|drop)'])],
  method: [cond('method', 'equals', ['post', 'Put'])],
  'ua-contains': [cond('user_agent', 'contains', ['Bot'])],
  'ua-prefix': [cond('user_agent', 'prefix', ['curl/'])],
  'ua-words': [cond('user_agent', 'regex', ['(?i)(sqlmap|nikto)'])],
  'ua-words-spaced': [cond('user_agent', 'regex', ['(?:bad bot|evil_crawler)'])],
  referer: [cond('referer', 'prefix', ['http://spam'])],
  'host-equals': [cond('host', 'equals', ['WWW.HOST-EQUALS.C.TEST', 'www.host-equals.lua.test'])],
  'host-prefix': [cond('host', 'prefix', ['WWW.'])],
  'header-equals': [header('X-Token', 'equals', ['s3cret'])],
  'header-words': [header('X-Api-Key', 'regex', ['(?i)(evil|bad_guy)'])],
  'header-negate': [header('X-Token', 'contains', ['s3'], true)],
  ip: [cond('ip', 'cidr', ['127.0.0.0/8']), cond('path', 'prefix', ['/a'])],
  'ip-negate': [cond('ip', 'cidr', ['10.0.0.0/8', '::1'], { negate: true }), cond('query', 'contains', ['x'])],
  'path-negate': [cond('path', 'prefix', ['/a'], { negate: true })],
  'ua-words-negate': [cond('user_agent', 'regex', ['(?i)bot'], { negate: true })],
  'country-negate': [cond('country', 'equals', ['cn'], { negate: true }), cond('path', 'prefix', ['/a'])],
  'all-of': [
    cond('method', 'equals', ['GET']),
    cond('query', 'contains', ['q=']),
    cond('user_agent', 'contains', ['Bot'], { negate: true }),
  ],
};

/** What each pair gets: paths as nginx normalizes them, case differences, methods, headers, both names. */
const REQUESTS: Ask[] = [
  { path: '/' },
  { path: '/a' },
  { path: '/A' },
  { path: '/b/c?a=1' },
  { path: '/adm/in' },
  { path: '/x/../admin' },
  { path: '/%61dmin' },
  { path: '/ADMIN' },
  { path: '/Admin' },
  { path: '/wp-login.php' },
  { path: '/%63%3F' },
  { path: '/?a=1' },
  { path: '/?a=10&debug' },
  { path: '/?q=UNION' },
  { path: '/a?' },
  { method: 'POST' },
  { method: 'PUT', path: '/a' },
  { method: 'DELETE' },
  { headers: { 'user-agent': 'GoodBot/1.0' } },
  { headers: { 'user-agent': 'goodbot' } },
  { headers: { 'user-agent': 'curl/8.0' } },
  { headers: { 'user-agent': 'CURL/8.0' } },
  { headers: { 'user-agent': 'Mozilla SQLMap' } },
  { headers: { 'user-agent': 'a Bad Bot' } },
  { headers: { 'user-agent': 'x evil_crawler' } },
  { headers: { referer: 'http://spam.example/' } },
  { headers: { referer: 'HTTP://SPAM' } },
  { www: true },
  { www: true, path: '/a' },
  { headers: { 'x-token': 's3cret' } },
  { headers: { 'X-TOKEN': 'S3CRET' } },
  { headers: { 'x-token': '' } },
  { headers: { 'x-api-key': 'very EVIL' } },
  { headers: { 'x-api-key': 'bad-guy' } },
  { path: '/?x=1&q=1', headers: { 'user-agent': 'Bot' } },
  { path: '/?q=1', headers: { 'user-agent': 'Firefox' } },
  { path: '/?q=1', method: 'POST' },
];

const guard = makeProtection;

/**
 * The protection of a fast-path site runs in the nginx module (nginx/ngx_http_rampart_protect.c,
 * written by lua/rampart/fast_protect.lua) when it can: a request it lets through never enters Lua
 * and is counted as protect.lua counts it; anything else goes to the Lua router, which decides it
 * from the start as it always did. The live config is the agent's, marked so that the origin sees
 * which requests the Lua router routed, and with a location on the control port that reads the
 * shared dicts, so that each case checks the exact counts.
 */
describe.skipIf(MODULE === null)('protection on the fast path in a real nginx', () => {
  let edge: TestEdge;
  let origin: Origin;
  let version = 0;
  let sites: EdgeSite[];
  let protection: Omit<EdgeProtection, 'bans'>;
  /** The master's bans of every snapshot: one of a site that lasts, one of another site that is over. */
  let bans: EdgeBan[];

  const get = (host: string, request: Ask = {}) => {
    const { www, ...options } = request;
    return edgeRequest(edge.ports.http, { host: www ? `www.${host}` : host, ...options });
  };
  /** How a request went: its status, and for the origin's answer whether the Lua router routed it. */
  const outcome = (answer: Answer) => {
    if (answer.status !== 200) return String(answer.status);
    const body = JSON.parse(answer.body) as { headers: Record<string, string> };
    return body.headers[LUA_MARK] === 'lua' ? '200 lua' : '200 fast';
  };
  const ask = async (host: string, request: Ask = {}) => outcome(await get(host, request));

  /** A value of one of the shared dicts, read by the control port's test location; null when absent. */
  const shared = async (dict: 'rampart_limits' | 'rampart_bans', key: string) => {
    const answer = await localRequest({
      port: edge.ports.control,
      path: `/test-shared?dict=${dict}&key=${encodeURIComponent(key)}`,
    });
    expect(answer?.status).toBe(200);
    const text = answer!.body.trim();
    return text === 'nil' ? null : Number(text);
  };
  /** The counter of line n of group g for site `site`, as protect.lua keys it. */
  const count = (site: number, g: number, n: number, path = '') =>
    shared('rampart_limits', `r:${site}:${g}:${n}:${CLIENT}${path === '' ? '' : `:${path}`}`);

  /** The access log's block_reason of each request, by `host uri` (the first request of each). */
  const reasons = async () => {
    const text = await readFile(edge.paths.accessLog, 'utf8').catch(() => '');
    const found = new Map<string, string>();
    for (const entry of text.split('\n').filter((logged) => logged !== '')) {
      const { host, uri, block_reason } = JSON.parse(entry) as { host: string; uri: string; block_reason: string };
      if (!found.has(`${host} ${uri}`)) found.set(`${host} ${uri}`, block_reason);
    }
    return found;
  };

  /** How many routing swaps the workers took. */
  const swaps = async () => {
    const answer = await localRequest({ port: edge.ports.control, path: '/swaps' });
    const counts = JSON.parse(answer?.body ?? '{}') as { delta?: number; full?: number };
    return (counts.delta ?? 0) + (counts.full ?? 0);
  };
  /**
   * Applies the file's sites with `more` bans. After the first apply the routing data must be swapped
   * in: a reload would drop the marked config.
   */
  const apply = async (more: EdgeBan[] = []) => {
    const before = version === 0 ? 0 : await swaps();
    const applied = await edge.applier.apply(
      edge.snapshot({ version: ++version, sites, protection: { ...protection, bans: [...bans, ...more] } }),
    );
    expect(applied).toMatchObject({ applied: true, errors: [] });
    if (version > 1) expect(await swaps()).toBeGreaterThan(before);
  };

  const pairHost = (name: string, twin: boolean) => `${name}.${twin ? 'lua' : 'c'}.test`;

  beforeAll(async () => {
    edge = await createEdge();
    origin = await startOrigin('origin');
    const now = Math.floor(Date.now() / 1000);
    const site = (id: number, domain: string, p: Partial<SiteProtection> | null = null) =>
      makeSite({
        id,
        domains: [domain, `www.${domain}`],
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        ...(p ? { protection: guard(p) } : {}),
      });
    const pairs = Object.entries(PAIRS);
    sites = [
      site(11, 'pass.test', { rule_group_id: 1 }),
      site(12, 'deny.test', { rule_group_id: 2 }),
      site(13, 'allow.test', { rule_group_id: 2 }),
      site(14, 'entries.test', { rule_group_id: 2 }),
      site(15, 'white.test', { rule_group_id: 2, whitelist: ['10.1.0.0/16', '127.0.0.0/8'] }),
      site(16, 'block.test', { rule_group_id: 3 }),
      site(17, 'log.test', { rule_group_id: 4 }),
      site(18, 'challenge.test', { rule_group_id: 5 }),
      site(19, 'banned.test', { rule_group_id: 12 }),
      site(20, 'expired.test', { rule_group_id: 12 }),
      site(21, 'banning.test', { rule_group_id: 6 }),
      site(22, 'attack.test', { rule_group_id: 7, attack_rule_group_id: 8, under_attack: true }),
      site(23, 'country.test', { rule_group_id: 9 }),
      site(24, 'regex.test', { rule_group_id: 10 }),
      site(25, 'mixed.test', { rule_group_id: 11 }),
      site(26, 'plain.test'),
      site(27, 'soon.test', { rule_group_id: 12 }),
      site(28, 'acl-country.test', { rule_group_id: 12 }),
      ...pairs.flatMap(([name], i) => [
        site(100 + 2 * i, pairHost(name, false), { rule_group_id: 100 + 2 * i }),
        site(101 + 2 * i, pairHost(name, true), { rule_group_id: 101 + 2 * i }),
      ]),
    ];
    protection = {
      rule_groups: [
        // Far under their limits: every request counted, once by the line of all paths and once
        // more per path below /p/.
        group(1, [EVERY, rate(1_000_000)], [[cond('path', 'prefix', ['/p/'])], rate(1000, 'ip_url')]),
        group(2, [EVERY, rate(1)]),
        group(3, [EVERY, rate(3)]),
        group(4, [EVERY, rate(3), 'log']),
        group(
          5,
          [EVERY, rate(1_000_000)],
          [[cond('user_agent', 'regex', ['(?i)(sqlmap|nikto)'])], JS],
          [[cond('user_agent', 'contains', ['Wget'])], REDIRECT],
        ),
        group(6, [EVERY, rate(2), 'ban']),
        group(7, [EVERY, JS]),
        group(8, [EVERY, rate(1)]),
        group(9, [[cond('country', 'equals', ['ZZ'])], JS]),
        group(10, [[cond('path', 'regex', ['^/admin'])], JS]),
        // Words in two case modes: one list cannot hold them.
        group(11, [[cond('user_agent', 'regex', ['(?i)sqlmap', 'Nikto'])], JS]),
        group(12, [EVERY, rate(1_000_000)]),
        ...pairs.flatMap(([, conditions], i) => [
          group(100 + 2 * i, [conditions, JS]),
          group(101 + 2 * i, [[...conditions, ONLY_LUA], JS]),
        ]),
      ],
      acls: [
        denyAll(11, BLOCKLIST),
        denyAll(12, ['10.0.0.0/8', '192.168.0.0/16', '127.0.0.0/8']),
        {
          site_id: 13,
          entries: [
            { action: 'allow', condition: cond('ip', 'cidr', [CLIENT]) },
            { action: 'deny', condition: cond('ip', 'cidr', ['0.0.0.0/0']) },
          ],
        },
        {
          site_id: 14,
          entries: [
            { action: 'deny', condition: cond('path', 'prefix', ['/admin']) },
            { action: 'allow', condition: header('X-Pass', 'equals', ['yes']) },
            { action: 'deny', condition: cond('query', 'contains', ['evil']) },
          ],
        },
        { site_id: 28, entries: [{ action: 'deny', condition: cond('country', 'equals', ['ZZ']) }] },
      ],
      unbans: [],
    };
    bans = [
      { site_id: 19, cidr: CLIENT, expires_at: now + 600 },
      { site_id: 20, cidr: '127.0.0.0/8', expires_at: now - 10 },
    ];
    await apply();
    // The agent's config, the Lua router marking what it routed, and the shared dicts' reader.
    await restartMarked(edge, (conf) =>
      replaceIn(
        conf,
        '        location = /swaps {',
        '        location = /test-shared {\n' +
          '            default_type text/plain;\n' +
          '            content_by_lua_block {\n' +
          '                local value = ngx.shared[ngx.var.arg_dict]:get(ngx.unescape_uri(ngx.var.arg_key))\n' +
          '                ngx.say(value == nil and "nil" or tostring(value))\n' +
          '            }\n' +
          '        }\n' +
          '        location = /swaps {',
      ),
    );
  });

  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  it('serves a site under a long blocklist and far under its rates without Lua, counting each request once', async () => {
    for (let i = 1; i <= 3; i++) {
      expect(await ask('pass.test', { path: `/${i}` })).toBe('200 fast');
      expect(await count(11, 1, 1)).toBe(i);
    }
    expect(await count(11, 1, 2, '/1')).toBeNull();
    // The line of paths below /p/ counts per path as well.
    for (let i = 1; i <= 2; i++) {
      expect(await ask('pass.test', { path: '/p/x?i=1' })).toBe('200 fast');
      expect(await count(11, 1, 1)).toBe(3 + i);
      expect(await count(11, 1, 2, '/p/x')).toBe(i);
    }
    expect(await ask('pass.test', { path: '/p/y' })).toBe('200 fast');
    expect(await count(11, 1, 2, '/p/y')).toBe(1);
    expect(await count(11, 1, 2, '/p/x')).toBe(2);
  });

  it('leaves an ACL deny to Lua, and serves an ACL allow without Lua and without the lines after it', async () => {
    // Denied by the third of its address entries, before its line counts anything.
    expect(await ask('deny.test', { path: '/denied' })).toBe('403');
    expect(await count(12, 2, 1)).toBeNull();
    // Allowed before a deny of everything, and past a line that would block the second request.
    for (let i = 0; i < 3; i++) expect(await ask('allow.test')).toBe('200 fast');
    expect(await count(13, 2, 1)).toBeNull();
  });

  it('runs ACL entries with conditions in order: the first that holds decides', async () => {
    expect(await ask('entries.test', { path: '/admin/x' })).toBe('403');
    expect(await ask('entries.test', { path: '/?evil=1' })).toBe('403');
    expect(await count(14, 2, 1)).toBeNull();
    expect(await ask('entries.test', { path: '/first' })).toBe('200 fast');
    expect(await count(14, 2, 1)).toBe(1);
    // The allow entry skips the line (its limit is 1) and the deny after it, not the deny before it.
    const pass = { 'x-pass': 'yes' };
    expect(await ask('entries.test', { headers: pass })).toBe('200 fast');
    expect(await ask('entries.test', { path: '/?evil=1', headers: pass })).toBe('200 fast');
    expect(await ask('entries.test', { path: '/admin', headers: pass })).toBe('403');
    expect(await count(14, 2, 1)).toBe(1);
    expect(await ask('entries.test', { path: '/second' })).toBe('403');
    expect(await count(14, 2, 1)).toBe(2);
  });

  it('serves a whitelisted client without Lua and without counting it', async () => {
    for (let i = 0; i < 3; i++) expect(await ask('white.test')).toBe('200 fast');
    expect(await count(15, 2, 1)).toBeNull();
  });

  it('blocks the request over a rate limit in Lua, counted once', async () => {
    for (let i = 1; i <= 3; i++) {
      expect(await ask('block.test', { path: `/${i}` })).toBe('200 fast');
      expect(await count(16, 3, 1)).toBe(i);
    }
    // The module took its count back: Lua counted the request once.
    for (const i of [4, 5]) {
      expect(await ask('block.test', { path: `/${i}` })).toBe('403');
      expect(await count(16, 3, 1)).toBe(i);
    }
  });

  it('serves the request over a log-only limit through Lua, which logs it, counted once', async () => {
    for (let i = 1; i <= 3; i++) {
      expect(await ask('log.test', { path: `/${i}` })).toBe('200 fast');
      expect(await count(17, 4, 1)).toBe(i);
    }
    for (const i of [4, 5]) {
      expect(await ask('log.test', { path: `/${i}` })).toBe('200 lua');
      expect(await count(17, 4, 1)).toBe(i);
    }
  });

  it('leaves a challenge to Lua when its words match, after a rate line that counts the request once', async () => {
    expect(await ask('challenge.test', { headers: { 'user-agent': 'Mozilla/5.0' } })).toBe('200 fast');
    expect(await count(18, 5, 1)).toBe(1);
    const js = await get('challenge.test', { path: '/js', headers: { 'user-agent': 'SQLMap/1.0' } });
    expect(js.status).toBe(503);
    expect(js.body).toContain('<script>');
    expect(await count(18, 5, 1)).toBe(2);
    const moved = await get('challenge.test', { path: '/moved?a=1', headers: { 'user-agent': 'Wget/1.21' } });
    expect(moved.status).toBe(302);
    expect(moved.headers.location).toBe('/moved?a=1');
    expect(await count(18, 5, 1)).toBe(3);
    // Neither line's words: "wget" is not "Wget" (compared with case), nor "nikt0" "nikto".
    expect(await ask('challenge.test', { headers: { 'user-agent': 'wget nikt0' } })).toBe('200 fast');
    expect(await count(18, 5, 1)).toBe(4);
  });

  it("leaves the master's bans of a site to Lua while they last", async () => {
    expect(await ask('banned.test', { path: '/manual' })).toBe('403');
    expect(await count(19, 12, 1)).toBeNull();
    // A ban that was over before the apply does nothing.
    expect(await ask('expired.test')).toBe('200 fast');
    expect(await count(20, 12, 1)).toBe(1);
  });

  it('bans by a rule in Lua, and leaves each later request of the banned client to Lua', async () => {
    for (let i = 1; i <= 2; i++) expect(await ask('banning.test', { path: `/${i}` })).toBe('200 fast');
    expect(await ask('banning.test', { path: '/3' })).toBe('403');
    // The node's ban, in the shared dict the module reads.
    expect(await shared('rampart_bans', `b:21:${CLIENT}`)).toBe(6);
    expect(await count(21, 6, 1)).toBe(3);
    expect(await ask('banning.test', { path: '/4' })).toBe('403');
    // Banned before any line runs: nothing more counted.
    expect(await count(21, 6, 1)).toBe(3);
  });

  it('runs the attack rule group of a site under attack', async () => {
    // The normal group challenges every request; the attack group lets one through a minute.
    expect(await ask('attack.test', { path: '/1' })).toBe('200 fast');
    expect(await count(22, 8, 1)).toBe(1);
    expect(await ask('attack.test', { path: '/2' })).toBe('403');
    expect(await count(22, 8, 1)).toBe(2);
  });

  it('keeps in Lua a site whose protection has a regex or words in two case modes, and runs a country itself', async () => {
    // Without a GeoIP database every address's country reads "" in both (geoip.test.ts has one).
    expect(await ask('country.test')).toBe('200 fast');
    expect(await ask('acl-country.test')).toBe('200 fast');
    expect(await ask('regex.test')).toBe('200 lua');
    expect(await ask('regex.test', { path: '/admin' })).toBe('503');
    expect(await ask('mixed.test')).toBe('200 lua');
    expect(await ask('mixed.test', { headers: { 'user-agent': 'nikto' } })).toBe('200 lua');
    expect(await ask('mixed.test', { headers: { 'user-agent': 'NIKTO sqlmap' } })).toBe('503');
  });

  it('decides every request of each condition as the Lua router does', async () => {
    const outcomes = (host: string) => Promise.all(REQUESTS.map((request) => ask(host, request)));
    const seen = await Promise.all(
      Object.keys(PAIRS).map(async (name) => ({
        name,
        module: await outcomes(pairHost(name, false)),
        lua: await outcomes(pairHost(name, true)),
      })),
    );
    for (const { name, module, lua } of seen) {
      // Each pair sees requests its conditions select and requests they do not.
      expect(lua, name).toContain('503');
      expect(lua, name).toContain('200 lua');
      expect(lua, name).not.toContain('200 fast');
      // The same answers, and the module's site served without Lua what it let through.
      const expected = REQUESTS.map((request, i) => `${JSON.stringify(request)} ${lua[i]!.replace('lua', 'fast')}`);
      const got = REQUESTS.map((request, i) => `${JSON.stringify(request)} ${module[i]}`);
      expect(got, name).toEqual(expected);
    }
  });

  it("leaves the master's bans of every site to Lua, and serves the site again once they end", async () => {
    const now = Math.floor(Date.now() / 1000);
    await apply([{ site_id: 0, cidr: CLIENT, expires_at: now + 600 }]);
    expect(await ask('plain.test', { path: '/global' })).toBe('403');
    expect(await ask('pass.test', { path: '/global' })).toBe('403');
    expect(await ask('country.test', { path: '/global' })).toBe('403');
    // Whitelisted, or allowed by the ACL: neither checks a ban.
    expect(await ask('white.test')).toBe('200 fast');
    expect(await ask('allow.test')).toBe('200 fast');

    // A site's ban that ends a few seconds from now: the module lets the client through once it has.
    await apply([{ site_id: 27, cidr: '127.0.0.0/8', expires_at: Math.floor(Date.now() / 1000) + 4 }]);
    expect(await ask('plain.test')).toBe('200 fast');
    expect(await ask('pass.test')).toBe('200 fast');
    expect(await ask('soon.test', { path: '/soon' })).toBe('403');
    await eventually(async () => expect(await ask('soon.test')).toBe('200 fast'), 10_000, 200);
    expect(await count(27, 12, 1)).toBe(1);
  });

  it('logs why Lua acted on each request the module left to it, and nothing for those it served', async () => {
    // Checked once for the whole file: nginx writes the access log a second at a time.
    const expected: Record<string, string> = {
      'pass.test /1': '',
      'deny.test /denied': 'kind=acl;action=deny;detail=entry 3',
      'entries.test /admin/x': 'kind=acl;action=deny;detail=entry 1',
      'entries.test /?evil=1': 'kind=acl;action=deny;detail=entry 3',
      'entries.test /second': `kind=rate;action=block;${line(2, 1)};detail=1 requests in 60 s`,
      'block.test /3': '',
      'block.test /4': `kind=rate;action=block;${line(3, 1)};detail=3 requests in 60 s`,
      'log.test /3': '',
      'log.test /4': `kind=rate;action=log;${line(4, 1)};detail=3 requests in 60 s`,
      'challenge.test /js': `kind=challenge;action=challenge;${line(5, 2)};detail=js`,
      'challenge.test /moved?a=1': `kind=challenge;action=challenge;${line(5, 3)};detail=redirect`,
      'banned.test /manual': `kind=ban;action=banned;detail=manual ${CLIENT}`,
      'banning.test /3': `kind=rate;action=ban;${line(6, 1)};detail=2 requests in 60 s, banned 600 s`,
      'banning.test /4': 'kind=ban;action=banned',
      'attack.test /1': '',
      'attack.test /2': `kind=rate;action=block;${line(8, 1)};detail=1 requests in 60 s`,
      'plain.test /global': `kind=ban;action=banned;detail=manual ${CLIENT}`,
      'soon.test /soon': 'kind=ban;action=banned;detail=manual 127.0.0.0/8',
    };
    await eventually(
      async () => {
        const logged = await reasons();
        expect(Object.fromEntries(Object.keys(expected).map((key) => [key, logged.get(key)]))).toEqual(expected);
      },
      5000,
      100,
    );
  });
});
