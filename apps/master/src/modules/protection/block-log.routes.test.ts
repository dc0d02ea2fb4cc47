import type { BlockLogEntry } from '@rampart/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_STORES, logStoreEnv } from '../../test/clickhouse.ts';
import { acceptedNode, createSite, data, logLine, shipLogs } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

type Page = { list: BlockLogEntry[]; total: number };
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0) / 1000;

describe.each(LOG_STORES)('block log on $store', (target) => {
  let test: TestApp;
  let alice: string;
  let bob: string;
  let shop: number;
  let blog: number;
  let bobs: number;
  beforeEach(async () => {
    test = await startTestApp(target, { env: logStoreEnv(target) });
    alice = await addUser(test, 'alice');
    bob = await addUser(test, 'bob');
    shop = await createSite(test, alice, 'shop.example.com');
    blog = await createSite(test, alice, 'blog.example.com');
    bobs = await createSite(test, bob, 'bob.example.com');
    const node = await acceptedNode(test);
    const elsewhere = { client_ip: '192.0.2.1' };
    await shipLogs(test, node, 1, [
      logLine({ ...elsewhere, site_id: shop, time: T0, uri: '/ok' }),
      logLine({
        ...elsewhere,
        site_id: shop,
        time: T0 + 1,
        client_ip: '198.51.100.7',
        status: 403,
        uri: '/login',
        method: 'POST',
        block_reason: 'kind=rate;action=ban;group=3;match=7;filter=2;detail=120 requests in 60 s, banned 600 s',
      }),
      logLine({
        ...elsewhere,
        site_id: shop,
        time: T0 + 2,
        client_ip: '198.51.100.7',
        status: 403,
        block_reason: 'kind=ban;action=banned',
      }),
      logLine({
        ...elsewhere,
        site_id: blog,
        time: T0 + 3,
        status: 503,
        block_reason: 'kind=challenge;action=challenge;group=13;match=1;filter=1;detail=js',
      }),
      logLine({ ...elsewhere, site_id: blog, time: T0 + 4, status: 403, block_reason: 'kind=acl;action=deny;group=3' }),
      logLine({ ...elsewhere, site_id: blog, time: T0 + 5, status: 403, block_reason: 'legacy text' }),
      logLine({
        ...elsewhere,
        site_id: bobs,
        time: T0 + 6,
        status: 403,
        block_reason: 'kind=waf;action=block;detail=942100',
      }),
    ]);
  });
  afterEach(async () => {
    await test.close();
  });

  const page = async (token: string, query = '') =>
    data<Page>(await test.call('GET', `/v1/monitor/site/block-log${query}`, { token }));

  it('lists what protection acted on, newest first, with the reason taken apart', async () => {
    const all = await page(alice);
    expect(all.total).toBe(5);
    expect(all.list.map((row) => row.kind)).toEqual(['', 'acl', 'challenge', 'ban', 'rate']);
    expect(all.list[4]).toEqual({
      time: new Date((T0 + 1) * 1000).toISOString(),
      site_id: shop,
      node_id: expect.any(Number),
      client_ip: '198.51.100.7',
      method: 'POST',
      host: 'www.example.com',
      uri: '/login',
      status: 403,
      kind: 'rate',
      action: 'ban',
      group: 3,
      match: 7,
      filter: 2,
      detail: '120 requests in 60 s, banned 600 s',
    });
    expect(all.list[0]).toMatchObject({ kind: '', action: '', detail: 'legacy text' });
  });

  it('filters by site, address, kind, group and time, and pages', async () => {
    expect((await page(alice, `?site_id=${shop}`)).total).toBe(2);
    expect((await page(alice, '?ip=198.51.100.7')).total).toBe(2);
    expect((await page(alice, '?kind=challenge')).list).toMatchObject([{ site_id: blog, group: 13 }]);
    expect((await page(alice, '?group=3')).list.map((row) => row.kind)).toEqual(['acl', 'rate']);
    expect((await page(alice, `?from=${T0 + 2}&to=${T0 + 4}`)).list.map((row) => row.kind)).toEqual([
      'challenge',
      'ban',
    ]);
    const iso = (s: number) => new Date(s * 1000).toISOString();
    expect((await page(alice, `?from=${iso(T0 + 2)}&to=${iso(T0 + 4)}`)).total).toBe(2);
    const second = await page(alice, '?limit=2&page=2');
    expect(second).toMatchObject({ total: 5, list: [{ kind: 'challenge' }, { kind: 'ban' }] });
    const badTime = await test.call('GET', '/v1/monitor/site/block-log?from=yesterday', { token: alice });
    expect(badTime.body.msg).toBe(
      'querystring/from: must be an ISO 8601 time such as 2026-11-22T10:00:00Z, or Unix seconds',
    );
    const badKind = await test.call('GET', '/v1/monitor/site/block-log?kind=%25', { token: alice });
    expect(badKind.body.code).toBe('invalid_param');
  });

  it('shows users only their own sites, and admins every site', async () => {
    expect((await page(bob)).list.map((row) => row.site_id)).toEqual([bobs]);
    const foreign = await test.call('GET', `/v1/monitor/site/block-log?site_id=${shop}`, { token: bob });
    expect(foreign.body).toMatchObject({ code: 'invalid_param', msg: `site_id: site ${shop} does not exist` });
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await page(admin)).total).toBe(6);
    const carol = await addUser(test, 'carol');
    expect(await page(carol)).toEqual({ list: [], total: 0 });
  });

  it.skipIf(target.store === 'clickhouse')('reads through the partial index made for it', async () => {
    const plan =
      target.dialect === 'sqlite'
        ? await sql<{
            detail: string;
          }>`explain query plan select * from access_logs where block_reason <> '' and site_id in (1, 2) order by time_ms desc`.execute(
            test.database.logs,
          )
        : undefined;
    if (plan) expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(/access_logs_blocked/);
    const names =
      target.dialect === 'sqlite'
        ? await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and name like 'access_logs_blocked%' order by name`.execute(
            test.database.logs,
          )
        : await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'access_logs' and indexname like 'access_logs_blocked%' order by indexname`.execute(
            test.database.logs,
          );
    expect(names.rows.map((row) => row.name)).toEqual(['access_logs_blocked_site_time', 'access_logs_blocked_time']);
  });
});
