import type { AccessLogLine, RulePreview } from '@rampart/contracts';
import { type SqlBool, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_STORES, logStoreEnv } from '../../test/clickhouse.ts';
import {
  acceptedNode,
  createFilter,
  createMatch,
  createSite,
  data,
  type EdgeNode,
  logLine,
  shipLogs,
} from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { conditionVectors, vectorLogLine } from './condition-vectors.ts';
import { edgeRequest } from './nginx-request.ts';
import { compileCondition } from './preview-conditions.ts';
import { conditionFilter, logDialect } from './preview-sql.ts';
import { narrowedLines, newestLines } from './rule-preview.repository.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe.each(LOG_STORES)('rule preview on $store', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  let shop: number;
  let node: EdgeNode;
  let seq = 0;
  beforeEach(async () => {
    test = await startTestApp(target, { env: logStoreEnv(target) });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
    shop = await createSite(test, alice, 'shop.example.com');
    node = await acceptedNode(test);
    seq = 0;
  });
  afterEach(async () => {
    await test.close();
  });

  const ship = (lines: Partial<AccessLogLine>[]) =>
    shipLogs(
      test,
      node,
      ++seq,
      lines.map((fields) => logLine({ site_id: shop, ...fields })),
    );
  const preview = (token: string, rule: object, extra: object = {}) =>
    test.call('POST', '/v1/rules/preview', { token, body: { site_id: shop, hours: 1, rule, ...extra } });
  const at = (start: number, ms: number) => (start + ms) / 1000;

  it('answers what a draft ACL would have done: outcomes, addresses, tops, samples and what it could not evaluate', async () => {
    const start = Date.now() - 30 * MINUTE_MS;
    await ship([
      { time: at(start, 0), client_ip: '203.0.113.5', uri: '/a?x=1', user_agent: 'curl/8', country: 'CN' },
      { time: at(start, 1000), client_ip: '203.0.113.5', uri: '/%61', user_agent: 'curl/8', country: 'CN' },
      { time: at(start, 2000), client_ip: '203.0.113.6', uri: '/b', country: 'CN' },
      { time: at(start, 3000), client_ip: '198.51.100.7', uri: '/health' },
      { time: at(start, 4000), client_ip: '198.51.100.8', uri: '/c', country: 'RU' },
      { time: at(start, 5000), client_ip: '198.51.100.9', uri: '/d', country: 'US' },
      { time: at(start, 6000), client_ip: '198.51.100.10', uri: '/e', method: 'POST', country: 'US' },
      // Older than the hour previewed.
      { time: at(start, -HOUR_MS), client_ip: '203.0.113.5', uri: '/old' },
    ]);
    const rule = {
      type: 'acl',
      entries: [
        { action: 'allow', condition: { field: 'path', op: 'prefix', values: ['/health'] } },
        { action: 'deny', condition: { field: 'header', header: 'X-Token', op: 'equals', values: ['t'] } },
        { action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['203.0.113.0/24'] } },
        { action: 'deny', condition: { field: 'country', op: 'equals', values: ['RU'] } },
        { action: 'deny', condition: { field: 'method', op: 'equals', values: ['post'] } },
      ],
    };
    const answer = data<RulePreview>(await preview(alice, rule));
    expect(answer).toMatchObject({
      site_id: shop,
      hours: 1,
      scanned: 7,
      matched: 6,
      stopped: 5,
      stopped_addresses: 4,
      addresses: 5,
      outcomes: { allow: 1, block: 5, pass: 0, challenge: 0, delay: 0, ban: 0, log: 0 },
      rate_crossings: [],
      not_evaluated: [
        {
          path: 'rule.entries[1].condition',
          reason: 'the access log does not keep the request header X-Token; the entry is left out of the preview',
        },
      ],
    });
    expect(Date.parse(answer.to) - Date.parse(answer.from)).toBe(HOUR_MS);
    expect(answer.top.addresses[0]).toEqual({ value: '203.0.113.5', requests: 2 });
    expect(answer.top.paths[0]).toEqual({ value: '/a', requests: 2 });
    expect(answer.top.countries).toEqual([
      { value: 'CN', requests: 3 },
      { value: '', requests: 1 },
      { value: 'RU', requests: 1 },
      { value: 'US', requests: 1 },
    ]);
    expect(answer.top.user_agents).toEqual([
      { value: 'test', requests: 4 },
      { value: 'curl/8', requests: 2 },
    ]);
    expect(answer.samples.map((sample) => [sample.uri, sample.outcome])).toEqual([
      ['/e', 'block'],
      ['/c', 'block'],
      ['/health', 'allow'],
      ['/b', 'block'],
      ['/%61', 'block'],
      ['/a?x=1', 'block'],
    ]);
    expect(answer.samples[1]).toEqual({
      time: new Date(start + 4000).toISOString(),
      client_ip: '198.51.100.8',
      country: 'RU',
      method: 'GET',
      host: 'www.example.com',
      uri: '/c',
      status: 200,
      user_agent: 'test',
      referer: '',
      outcome: 'block',
    });
  });

  it('replays a rate filter and names the addresses that crossed it and when', async () => {
    const start = Date.now() - 20 * MINUTE_MS;
    await ship([
      ...[0, 1, 2, 3, 4].map((s) => ({ time: at(start, s * 1000), client_ip: '192.0.2.1', uri: '/login' })),
      ...[0, 1].map((s) => ({ time: at(start, s * 1000 + 500), client_ip: '192.0.2.2', uri: '/login?next=/' })),
      // A new window for .3: 61 s after its first request.
      ...[0, 1, 61].map((s) => ({ time: at(start, s * 1000 + 700), client_ip: '192.0.2.3', uri: '/login' })),
      { time: at(start, 10_000), client_ip: '192.0.2.1', uri: '/other' },
    ]);
    const rule = {
      type: 'cc_match',
      match: { conditions: [{ field: 'path', op: 'prefix', values: ['/login'] }] },
      filter: { type: 'rate', requests: 2, seconds: 60, per: 'ip' },
      action: 'block',
    };
    const answer = data<RulePreview>(await preview(alice, rule));
    expect(answer).toMatchObject({
      scanned: 11,
      matched: 10,
      stopped: 3,
      stopped_addresses: 1,
      outcomes: { pass: 7, block: 3 },
      rate_crossings: [
        { client_ip: '192.0.2.1', first_crossed_at: new Date(start + 2000).toISOString(), requests_over: 3 },
      ],
      not_evaluated: [],
    });
  });

  it('takes a rule group of the owner’s and system matches only, and answers not_found for another user’s site', async () => {
    await ship([{ time: at(Date.now() - MINUTE_MS, 0), client_ip: '203.0.113.9', uri: '/x' }]);
    const aliceMatch = await createMatch(test, alice);
    const aliceFilter = await createFilter(test, alice, { name: 'js', type: 'js' });
    const bobMatch = await createMatch(test, bob);
    const group = (matchId: number) => ({
      type: 'rule_group',
      rules: [{ match_id: matchId, filter_id: aliceFilter, action: 'block', ban_seconds: 600 }],
    });
    const own = data<RulePreview>(await preview(alice, group(aliceMatch)));
    expect(own).toMatchObject({ matched: 1, stopped: 1, outcomes: { challenge: 1 } });
    expect((await preview(alice, group(bobMatch))).body).toMatchObject({
      code: 'invalid_param',
      msg: `rule/rules/0/match_id: match ${bobMatch} does not exist`,
    });
    // A stored match's condition the log cannot answer is named by the line and the condition's index.
    const headerMatch = await createMatch(test, alice, {
      name: 'debug',
      conditions: [
        { field: 'path', op: 'prefix', values: ['/'], negate: false },
        { field: 'header', header: 'X-Debug', op: 'equals', values: ['1'], negate: false },
      ],
    });
    expect(data<RulePreview>(await preview(alice, group(headerMatch))).not_evaluated).toEqual([
      {
        path: 'rule.rules[0].match_id',
        condition: 1,
        reason:
          'condition 1: the access log does not keep the request header X-Debug; the line is left out of the preview',
      },
    ]);
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect(data<RulePreview>(await preview(admin, group(aliceMatch)))).toMatchObject({ matched: 1 });
    expect((await preview(bob, group(bobMatch))).body).toMatchObject({
      code: 'not_found',
      msg: `site_id: site ${shop} does not exist`,
    });
  });

  it('is in the OpenAPI document with its body and answer', async () => {
    const document = (await test.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown; 'x-policy'?: unknown }>>;
    };
    const operation = document.paths['/v1/rules/preview']?.post;
    expect(operation?.requestBody).toBeDefined();
    expect(operation?.['x-policy']).toBeDefined();
  });

  it('names the field a draft rule breaks', async () => {
    const bad = await preview(alice, {
      type: 'acl',
      entries: [{ action: 'deny', condition: { field: 'path', op: 'regex', values: ['(unclosed'] } }],
    });
    expect(bad.body).toMatchObject({
      code: 'invalid_param',
      msg: 'rule/entries/0/condition/values/0: (unclosed is not a valid regular expression',
    });
    const noRate = await preview(alice, {
      type: 'cc_match',
      match: { conditions: [{ field: 'path', op: 'prefix', values: ['/'] }] },
      filter: { type: 'rate', seconds: 60 },
      action: 'block',
    });
    expect(noRate.body).toMatchObject({
      code: 'invalid_param',
      msg: 'rule/filter/requests: is required for a rate filter',
    });
    expect((await preview(alice, { type: 'acl', entries: [] }, { hours: 25 })).body.code).toBe('invalid_param');
  });

  it.skipIf(target.store !== 'clickhouse')(
    'reads the newest lines of the last minutes, the hour, then the rest in batches',
    async () => {
      const now = Date.now();
      const start = now - 2 * HOUR_MS;
      await ship([
        ...[0, 1, 2, 3].map((s) => ({ time: at(start, s * 1000), uri: `/n${s}` })),
        { time: at(now, -30 * MINUTE_MS), uri: '/n4' },
        { time: at(now, -MINUTE_MS), uri: '/n5' },
      ]);
      if (test.events.kind !== 'clickhouse') throw new Error('not ClickHouse');
      const range = { siteId: shop, fromMs: start - 1, toMs: now };
      const uris: string[] = [];
      for await (const batch of newestLines(test.events, range, sql<SqlBool>`1 = 1`, 2)) {
        uris.push(...batch.map((line) => line.uri));
      }
      expect(uris).toEqual(['/n5', '/n4', '/n3', '/n2', '/n1', '/n0']);
    },
  );

  it('lets the database hand over every line the edge’s conditions hold for (the shared cases)', async () => {
    const vectors = conditionVectors();
    const start = Date.now() - 10 * MINUTE_MS;
    const lines = vectors.map((vector, index) => ({
      time: at(start, index * 1000),
      ...vectorLogLine(vector.request),
      country: vector.request.rampart_country,
    }));
    await ship(lines);
    const logs = test.events.db;
    const range = { siteId: shop, fromMs: start - 1, toMs: Date.now() };
    let narrowed = 0;
    for (const vector of vectors.filter((item) => !item.log_lacks)) {
      const compiled = compileCondition(vector.condition);
      if (compiled.kind !== 'test') throw new Error(`${vector.name}: ${compiled.reason}`);
      const selected = new Set<number>();
      for await (const page of narrowedLines(test.events, range, conditionFilter(logDialect(logs), vector.condition))) {
        for (const line of page) selected.add(Math.round((line.time_ms - start) / 1000));
      }
      const holding = vectors
        .map((other, index) => ({ index, request: edgeRequest(vectorLogLine(other.request)) }))
        .filter(({ request }) => request.uri !== null && compiled.test(request))
        .map(({ index }) => index);
      for (const index of holding) expect(selected, `${vector.name}: line of ${vectors[index]?.name}`).toContain(index);
      narrowed += vectors.length - selected.size;
    }
    // The filters do narrow: most conditions leave most lines in the database.
    expect(narrowed).toBeGreaterThan((vectors.length * vectors.length) / 2);
  });
});
