import {
  type AclEntry,
  DEFAULT_SITE_PROTECTION,
  type EdgeProtection,
  type EdgeRuleGroup,
  EdgeSnapshot,
} from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import {
  acceptedNode,
  createFilter,
  createGroup,
  createMatch,
  createSite,
  data,
  ipMatch,
  logLine,
  pathMatch,
  rateFilter,
  shipLogs,
  snapshotOf,
} from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const seconds = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

describe.each(DIALECTS)('protection in the edge snapshot on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  beforeEach(async () => {
    test = await startTestApp(target);
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
  });
  afterEach(async () => {
    await test.close();
  });

  it('holds exactly the groups, ACLs, bans and unbans the live sites need', async () => {
    const node = await acceptedNode(test);
    const systemMatch = await createMatch(test, admin, { ...ipMatch('system ips', ['192.0.2.0/24']), system: true });
    const systemFilter = await createFilter(test, admin, { name: 'js', type: 'js', system: true });
    const fallback = await createGroup(test, admin, {
      name: 'default',
      system: true,
      is_default: true,
      rules: [{ match_id: systemMatch, filter_id: systemFilter, action: 'block' }],
    });
    await createGroup(test, admin, { name: 'unused system', system: true });
    const login = {
      name: 'login',
      conditions: [
        { field: 'path', op: 'prefix', values: ['/login'] },
        { field: 'header', header: 'X-Api-Key', op: 'equals', values: ['k'], negate: true },
      ],
    };
    const match = await createMatch(test, alice, login);
    const filter = await createFilter(test, alice, { ...rateFilter('login rate'), per: 'ip_url' });
    const group = await createGroup(test, alice, {
      name: 'shop',
      rules: [
        { match_id: match, filter_id: filter, action: 'ban', ban_seconds: 300 },
        { match_id: systemMatch, filter_id: systemFilter, action: 'log' },
      ],
    });
    await createGroup(test, alice, {
      name: 'unused',
      rules: [{ match_id: match, filter_id: filter, action: 'block' }],
    });
    const protection = {
      ...DEFAULT_SITE_PROTECTION,
      rule_group_id: group,
      whitelist: ['10.0.0.0/8'],
      waf: { mode: 'detect', paranoia: 2, exclusions: [942100] },
    };
    const shop = await createSite(test, alice, 'shop.example.com', { protection });
    const blog = await createSite(test, alice, 'blog.example.com');
    const off = await createSite(test, alice, 'off.example.com', { enabled: false });

    const entries: AclEntry[] = [
      { action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['203.0.113.9'], negate: false } },
    ];
    for (const site_id of [shop, off])
      await test.call('POST', '/v1/acls', { token: alice, body: { site_id, entries } });
    await test.call('POST', '/v1/acls', { token: alice, body: { site_id: blog, entries: [] } });

    const ban = (token: string, site_id: number, cidr: string) =>
      test.call('POST', '/v1/monitor/site/blackip', { token, body: { site_id, cidr, seconds: 600 } });
    const running = data<{ expires_at: string }>(await ban(alice, shop, '198.51.100.0/24'));
    const global = data<{ expires_at: string }>(await ban(admin, 0, '2001:db8::/32'));
    await ban(alice, off, '198.51.100.1');
    const expired = data(await ban(alice, shop, '198.51.100.2'));
    await test.database.db
      .updateTable('bans')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', expired.id)
      .execute();
    await ban(alice, shop, '198.51.100.3');
    await test.call('DELETE', '/v1/monitor/site/blackip', {
      token: alice,
      body: { site_id: shop, ip: '198.51.100.3' },
    });

    const now = Math.floor(Date.now() / 1000);
    await shipLogs(test, node, 1, [
      logLine({
        site_id: shop,
        client_ip: '198.51.100.20',
        time: now,
        block_reason: 'kind=rate;action=ban;detail=banned 900 s',
      }),
      logLine({
        site_id: shop,
        client_ip: '198.51.100.21',
        time: now,
        block_reason: 'kind=rate;action=ban;detail=banned 900 s',
      }),
      logLine({
        site_id: shop,
        client_ip: '198.51.100.22',
        time: now - 1000,
        block_reason: 'kind=rate;action=ban;detail=banned 900 s',
      }),
    ]);
    await test.call('DELETE', '/v1/monitor/site/blackip', {
      token: alice,
      body: { site_id: shop, ip: '198.51.100.20' },
    });

    const snapshot = await snapshotOf(test, node);
    const expected: EdgeProtection = {
      rule_groups: (
        [
          {
            id: fallback,
            rules: [
              {
                match_id: systemMatch,
                filter_id: systemFilter,
                conditions: [{ field: 'ip', op: 'cidr', values: ['192.0.2.0/24'], negate: false }],
                filter: { name: 'js', type: 'js', valid_seconds: 3600 },
                action: 'block',
                ban_seconds: 600,
              },
            ],
          },
          {
            id: group,
            rules: [
              {
                match_id: match,
                filter_id: filter,
                conditions: [
                  { field: 'path', op: 'prefix', values: ['/login'], negate: false },
                  { field: 'header', header: 'X-Api-Key', op: 'equals', values: ['k'], negate: true },
                ],
                filter: { name: 'login rate', type: 'rate', requests: 100, seconds: 60, per: 'ip_url' },
                action: 'ban',
                ban_seconds: 300,
              },
              {
                match_id: systemMatch,
                filter_id: systemFilter,
                conditions: [{ field: 'ip', op: 'cidr', values: ['192.0.2.0/24'], negate: false }],
                filter: { name: 'js', type: 'js', valid_seconds: 3600 },
                action: 'log',
                ban_seconds: 600,
              },
            ],
          },
        ] satisfies EdgeRuleGroup[]
      ).sort((a, b) => a.id - b.id),
      acls: [{ site_id: shop, entries }],
      bans: [
        { site_id: shop, cidr: '198.51.100.0/24', expires_at: seconds(running.expires_at) },
        { site_id: 0, cidr: '2001:db8::/32', expires_at: seconds(global.expires_at) },
      ],
      unbans: [{ site_id: shop, ip: '198.51.100.20', until: now + 900 }],
    };
    expect(snapshot.protection).toEqual(expected);
    expect(Compile(EdgeSnapshot).Check(snapshot)).toBe(true);
    const sites = new Map(snapshot.sites.map((site) => [site.id, site.protection]));
    expect([...sites.keys()].sort()).toEqual([shop, blog].sort());
    expect(sites.get(shop)).toEqual(protection);
    // A site without a group runs the default one: the edge needs no default logic.
    expect(sites.get(blog)).toEqual({ ...DEFAULT_SITE_PROTECTION, rule_group_id: fallback });
  });

  it('follows edits of a used match into the next snapshot', async () => {
    const node = await acceptedNode(test);
    const match = await createMatch(test, alice, pathMatch('p', '/a'));
    const filter = await createFilter(test, alice);
    const group = await createGroup(test, alice, {
      name: 'g',
      rules: [{ match_id: match, filter_id: filter, action: 'block' }],
    });
    await createSite(test, alice, 's.example.com', {
      protection: { ...DEFAULT_SITE_PROTECTION, attack_rule_group_id: group },
    });
    const values = async () =>
      (await snapshotOf(test, node)).protection?.rule_groups[0]?.rules[0]?.conditions[0]?.values;
    expect(await values()).toEqual(['/a']);
    await test.call('PUT', `/v1/cc-matchs/${match}`, { token: alice, body: pathMatch('p', '/b') });
    expect(await values()).toEqual(['/b']);
    expect((await snapshotOf(test, node)).sites[0]?.protection?.rule_group_id).toBeNull();
  });
});
