import { DEFAULT_SITE_PROTECTION } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, createFilter, createSite, data, snapshotOf } from '../../test/protection.ts';
import { addUser, HOSTILE_VALUES, startTestApp, type TestApp } from '../../test/test-app.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const path = { field: 'path', op: 'prefix', values: ['/'] };

describe.each(DIALECTS)('hostile values in protection on $dialect', (target) => {
  let test: TestApp;
  let alice: string;
  let siteId: number;
  beforeEach(async () => {
    test = await startTestApp(target);
    alice = await addUser(test, 'alice');
    siteId = await createSite(test, alice, 'h.example.com');
  });
  afterEach(async () => {
    await test.close();
  });

  it('refuses them with invalid_param naming the field, and stores nothing', async () => {
    const calls: [Method, (v: string) => string, (v: string) => unknown, RegExp][] = [
      ['POST', () => '/v1/cc-matchs', (v) => ({ name: `m${v}`, conditions: [path] }), /^body\/name: /],
      [
        'POST',
        () => '/v1/cc-matchs',
        (v) => ({ name: 'm', conditions: [{ ...path, field: 'header', header: `X-A${v}` }] }),
        /^body\/conditions\/0\/header: /,
      ],
      [
        'POST',
        () => '/v1/cc-matchs',
        (v) => ({ name: 'm', conditions: [{ field: 'ip', op: 'cidr', values: [`10.0.0.1${v}`] }] }),
        /^(body\/)?conditions\/0\/values\/0: /,
      ],
      ['POST', () => '/v1/cc-filters', (v) => ({ name: `f${v}`, type: 'js' }), /^body\/name: /],
      ['POST', () => '/v1/cc-rules', (v) => ({ name: `g${v}` }), /^body\/name: /],
      [
        'POST',
        () => '/v1/acls',
        (v) => ({
          site_id: siteId,
          entries: [{ action: 'deny', condition: { field: 'ip', op: 'cidr', values: [`${v}1.2.3.4`] } }],
        }),
        /^(body\/)?entries\/0\/condition\/values\/0: /,
      ],
      [
        'POST',
        () => '/v1/acls',
        (v) => ({ site_id: siteId, entries: [{ action: 'deny', condition: { ...path, field: 'header', header: v } }] }),
        /^body\/entries\/0\/condition\/header: /,
      ],
      [
        'PUT',
        () => `/v1/sites/${siteId}`,
        (v) => ({ protection: { ...DEFAULT_SITE_PROTECTION, whitelist: [`10.0.0.0/8${v}`] } }),
        /^(body\/)?protection\/whitelist\/0: /,
      ],
      [
        'POST',
        () => '/v1/monitor/site/blackip',
        (v) => ({ site_id: siteId, cidr: `10.0.0.1${v}`, seconds: 60 }),
        /^body\/cidr: /,
      ],
      [
        'POST',
        () => '/v1/monitor/site/blackip',
        (v) => ({ site_id: siteId, cidr: '10.0.0.1', seconds: 60, reason: `r${v}` }),
        /^body\/reason: /,
      ],
      ['DELETE', () => '/v1/monitor/site/blackip', (v) => ({ site_id: siteId, ip: `10.0.0.1${v}` }), /^body\/ip: /],
      [
        'GET',
        (v) => `/v1/monitor/site/blackip?ip=${encodeURIComponent(`10.0.0.1${v}`)}`,
        () => undefined,
        /^querystring\/ip: /,
      ],
      [
        'GET',
        (v) => `/v1/monitor/site/block-log?ip=${encodeURIComponent(`10.0.0.1${v}`)}`,
        () => undefined,
        /^querystring\/ip: /,
      ],
    ];
    for (const [method, url, body, field] of calls) {
      for (const value of HOSTILE_VALUES) {
        const result = await test.call(method, url(value), { token: alice, body: body(value) });
        expect(result.body.code, `${method} ${url(value)} ${JSON.stringify(body(value))}`).toBe('invalid_param');
        expect(result.body.msg, JSON.stringify(body(value))).toMatch(field);
      }
    }
    for (const table of ['cc_matches', 'cc_filters', 'cc_rule_groups', 'acls', 'bans'] as const) {
      expect(await test.database.db.selectFrom(table).selectAll().execute(), table).toEqual([]);
    }
  });

  it('keeps printable match values as data: they reach the edge only as JSON strings', async () => {
    const printable = HOSTILE_VALUES.filter((value) => /^[ -~]+$/.test(value));
    const unprintable = HOSTILE_VALUES.filter((value) => !/^[ -~]+$/.test(value));
    expect(printable.length).toBeGreaterThan(10);
    for (const value of unprintable) {
      const result = await test.call('POST', '/v1/cc-matchs', {
        token: alice,
        body: { name: 'm', conditions: [{ ...path, op: 'contains', values: [value] }] },
      });
      expect(result.body.msg).toBe('body/conditions/0/values/0: must be 1 to 256 printable ASCII characters');
    }
    const match = data(
      await test.call('POST', '/v1/cc-matchs', {
        token: alice,
        body: { name: 'injections', conditions: [{ field: 'query', op: 'contains', values: printable }] },
      }),
    ).id;
    const filter = await createFilter(test, alice);
    const group = data(
      await test.call('POST', '/v1/cc-rules', {
        token: alice,
        body: { name: 'g', rules: [{ match_id: match, filter_id: filter, action: 'block' }] },
      }),
    ).id;
    await test.call('PUT', `/v1/sites/${siteId}`, {
      token: alice,
      body: { protection: { ...DEFAULT_SITE_PROTECTION, rule_group_id: group } },
    });
    const snapshot = await snapshotOf(test, await acceptedNode(test));
    expect(snapshot.protection?.rule_groups[0]?.rules[0]?.conditions[0]?.values).toEqual(printable);
  });
});
