import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { EdgeProtection, EdgeRuleGroup, SiteProtection } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProtection, makeSite } from '../src/testing/snapshots.ts';
import { launchChromium } from './support/browser.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const guard = makeProtection;

const everything = [{ field: 'path' as const, op: 'prefix' as const, values: ['/'], negate: false }];

const group = (
  id: number,
  filter: EdgeRuleGroup['rules'][number]['filter'],
  action: 'block' | 'ban' | 'log',
  ban_seconds = 600,
): EdgeRuleGroup => ({
  id,
  rules: [{ match_id: 10 + id, filter_id: 20 + id, conditions: everything, filter, action, ban_seconds }],
});

describe('protection at the edge', () => {
  let edge: TestEdge;
  let origin: Origin;
  let version = 1;

  const protection = (bans: EdgeProtection['bans'] = []): EdgeProtection => ({
    rule_groups: [
      group(1, { name: 'rate', type: 'rate', requests: 3, seconds: 2, per: 'ip' }, 'ban', 2),
      group(2, { name: 'js', type: 'js', valid_seconds: 600 }, 'block'),
      group(3, { name: '302', type: 'redirect', valid_seconds: 600 }, 'block'),
      group(4, { name: 'rate-log', type: 'rate', requests: 1, seconds: 60, per: 'ip' }, 'log'),
    ],
    acls: [
      {
        site_id: 1,
        entries: [
          { action: 'allow', condition: { field: 'path', op: 'prefix', values: ['/open/'], negate: false } },
          { action: 'deny', condition: { field: 'user_agent', op: 'contains', values: ['BadBot'], negate: false } },
          {
            action: 'deny',
            condition: { field: 'ip', op: 'cidr', values: ['10.0.0.0/8', '127.0.0.0/8'], negate: false },
          },
        ],
      },
    ],
    bans,
    unbans: [],
  });

  const apply = async (bans: EdgeProtection['bans'] = []) => {
    const site = (id: number, domain: string, p: SiteProtection) =>
      makeSite({
        id,
        domains: [domain],
        origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
        protection: p,
      });
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: ++version,
        sites: [
          site(1, 'acl.test', guard({ rule_group_id: 1 })),
          site(2, 'rate.test', guard({ rule_group_id: 1 })),
          site(3, 'js.test', guard({ rule_group_id: 2 })),
          site(4, 'redirect.test', guard({ rule_group_id: 3 })),
          site(5, 'log.test', guard({ rule_group_id: 4 })),
          site(6, 'calm.test', guard({ rule_group_id: 2, attack_rule_group_id: 3, whitelist: ['127.0.0.1'] })),
        ],
        protection: protection(bans),
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

  const get = (host: string, path = '/', headers: Record<string, string> = {}) =>
    edgeRequest(edge.ports.http, { host, path, headers });

  it('denies by ACL with 403, and an allow entry short-circuits everything after it', async () => {
    const denied = await get('acl.test', '/x');
    expect(denied.status).toBe(403);
    expect(denied.body).toContain('Access denied');
    expect((await get('acl.test', '/x', { 'accept-language': 'zh-CN,zh;q=0.9' })).body).toContain('访问被拒绝');
    // /open/ is allowed before the deny entries and before the rate rule that bans after 3.
    for (let i = 0; i < 6; i++) expect((await get('acl.test', '/open/page')).status).toBe(200);
  });

  it('bans after N requests within the window, and the ban expires', async () => {
    for (let i = 0; i < 3; i++) expect((await get('rate.test')).status).toBe(200);
    const banned = await get('rate.test');
    expect(banned.status).toBe(403);
    expect(banned.body).toContain('Too many requests');
    expect((await get('rate.test')).status).toBe(403);
    await eventually(async () => expect((await get('rate.test')).status).toBe(200), 20_000, 250);
  });

  it('a JS challenge stops a client without JavaScript, and headless Chromium passes it', async () => {
    const plain = await get('js.test', '/page');
    expect(plain.status).toBe(503);
    expect(plain.body).toContain('<script>');
    expect(origin.requests.some((r) => r.url === '/page')).toBe(false);

    const browser = await launchChromium(['js.test']);
    try {
      const page = await browser.newPage();
      await page.goto(`http://js.test:${edge.ports.http}/page`);
      // The page reloads itself once the proof of work is done; then the origin's JSON shows.
      await page.waitForFunction('document.body.innerText.includes(\'"origin":"origin"\')', null, {
        timeout: 10_000,
      });
      expect(origin.requests.some((r) => r.url === '/page')).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it('a 302 challenge is passed by a client that keeps cookies; forged and expired passes are refused', async () => {
    const first = await get('redirect.test', '/r?x=1');
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe('/r?x=1');
    const cookie = String(first.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toMatch(/^rampart_redirect=\d+\.[\w-]+$/);
    const second = await get('redirect.test', '/r?x=1', { cookie });
    expect(second.status).toBe(200);

    // A forged pass fails the challenge (the rule's action: block); an expired one is challenged again.
    const forged = cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await get('redirect.test', '/forged', { cookie: forged })).status).toBe(403);
    const key = (await readFile(edge.paths.challengeKeyFile, 'utf8')).trim();
    const expires = Math.floor(Date.now() / 1000) - 10;
    const mac = createHmac('sha1', key).update(`redirect|4|127.0.0.1|${expires}`).digest('base64url');
    expect((await get('redirect.test', '/r', { cookie: `rampart_redirect=${expires}.${mac}` })).status).toBe(302);
    const fresh = Math.floor(Date.now() / 1000) + 60;
    const good = createHmac('sha1', key).update(`redirect|4|127.0.0.1|${fresh}`).digest('base64url');
    expect((await get('redirect.test', '/r', { cookie: `rampart_redirect=${fresh}.${good}` })).status).toBe(200);
    // Bound to the site: the same pass does not open another site.
    expect((await get('js.test', '/r', { cookie: `rampart_redirect=${fresh}.${good}` })).status).toBe(503);
  });

  it('log-only rules let the request through and record why', async () => {
    expect((await get('log.test', '/one')).status).toBe(200);
    expect((await get('log.test', '/two')).status).toBe(200);
  });

  it('never challenges a whitelisted address', async () => {
    expect((await get('calm.test')).status).toBe(200);
  });

  it('a ban from the master stops the next request once applied, and lifts with the next config', async () => {
    expect((await get('log.test', '/before-ban')).status).toBe(200);
    await apply([{ site_id: 5, cidr: '127.0.0.0/8', expires_at: Math.floor(Date.now() / 1000) + 60 }]);
    const banned = await get('log.test', '/banned');
    expect(banned.status).toBe(403);
    await apply([{ site_id: 0, cidr: '127.0.0.1', expires_at: Math.floor(Date.now() / 1000) + 60 }]);
    expect((await get('rate.test', '/global')).status).toBe(403);
    // A whitelisted address is never banned.
    expect((await get('calm.test')).status).toBe(200);
    await apply([]);
    expect((await get('rate.test', '/lifted')).status).toBe(200);
  });

  it('writes each block, challenge, ban and log decision to the access log with rule, match and filter', async () => {
    await eventually(
      async () => {
        const lines = (await readFile(edge.paths.accessLog, 'utf8'))
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { host: string; uri: string; status: number; block_reason: string });
        const reason = (host: string, uri: string) => lines.find((l) => l.host === host && l.uri === uri)?.block_reason;
        expect(reason('acl.test', '/x')).toBe('kind=acl;action=deny;detail=entry 3');
        expect(reason('acl.test', '/open/page')).toBe('');
        expect(reason('js.test', '/page')).toBe('kind=challenge;action=challenge;group=2;match=12;filter=22;detail=js');
        expect(reason('redirect.test', '/r?x=1')).toMatch(
          /^kind=challenge;action=challenge;group=3;match=13;filter=23/,
        );
        expect(reason('log.test', '/two')).toBe(
          'kind=rate;action=log;group=4;match=14;filter=24;detail=1 requests in 60 s',
        );
        expect(reason('log.test', '/banned')).toBe('kind=ban;action=banned;detail=manual 127.0.0.0/8');
        expect(reason('redirect.test', '/forged')).toBe(
          'kind=challenge;action=block;group=3;match=13;filter=23;detail=failed redirect',
        );
        const bans = lines.filter((l) => l.host === 'rate.test' && l.block_reason.includes('action=ban;'));
        expect(bans).toHaveLength(1);
        expect(bans[0]!.block_reason).toBe(
          'kind=rate;action=ban;group=1;match=11;filter=21;detail=3 requests in 2 s, banned 2 s',
        );
      },
      5000,
      250,
    );
  });

  it('serves a site whose rule does not compile on the edge without protection, and reports it', async () => {
    const bad: EdgeRuleGroup = {
      id: 9,
      rules: [
        {
          match_id: 1,
          filter_id: 2,
          conditions: [{ field: 'user_agent', op: 'regex', values: ['(unclosed'], negate: false }],
          filter: { name: 'js', type: 'js', valid_seconds: 600 },
          action: 'block',
          ban_seconds: 60,
        },
      ],
    };
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: ++version,
        sites: [
          makeSite({
            id: 7,
            domains: ['regex.test'],
            origins: [{ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }],
            protection: guard({ rule_group_id: 9 }),
          }),
        ],
        protection: { rule_groups: [bad], acls: [], bans: [], unbans: [] },
      }),
    );
    expect(outcome).toMatchObject({ applied: true });
    expect(outcome.errors).toEqual([
      { kind: 'site', id: 7, error: expect.stringContaining('does not compile on the edge') },
    ]);
    expect((await get('regex.test')).status).toBe(200);
  });
});
