import type { AccessLogLine, Usage, UsageCount, UserPackageUsage, UserUsageList } from '@rampart/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usage5min } from '../../db/migrations/logs/2026-11-25T1120-usage-5min.ts';
import { bucketOf, LOG_STORES, logStoreEnv } from '../../test/clickhouse.ts';
import { acceptedNode, createSite, data, type EdgeNode, logLine, shipLogs } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

// September 2026: 30 days, so 8640 samples of which the highest 432 are dropped.
const MONTH = '2026-09';
const SEPT = Date.UTC(2026, 8, 1);
const FIVE_MIN = 300_000;
const DAY_MS = 86_400_000;

interface World {
  alice: string;
  bob: string;
  admin: string;
  aliceId: number;
  shop: number;
  blog: number;
  node: EdgeNode;
  lines: AccessLogLine[];
}

/**
 * shop: 440 consecutive 5-minute samples from 1 September, sample k (1..440) sending 375·k bytes
 * (10·k bit/s). blog: five bursts of 1,000,000 bytes on 10 September. bob: one line.
 */
function fixture(sites: { shop: number; blog: number; bobs: number }): AccessLogLine[] {
  const lines: AccessLogLine[] = [];
  for (let k = 1; k <= 440; k++) {
    lines.push(
      logLine({ site_id: sites.shop, time: (SEPT + (k - 1) * FIVE_MIN + 10_000) / 1000, bytes_sent: 375 * k }),
    );
  }
  for (let j = 0; j < 5; j++) {
    lines.push(
      logLine({ site_id: sites.blog, time: (SEPT + 9 * DAY_MS + j * FIVE_MIN) / 1000, bytes_sent: 1_000_000 }),
    );
  }
  lines.push(logLine({ site_id: sites.bobs, time: (SEPT + 4 * DAY_MS) / 1000, bytes_sent: 99 }));
  return lines;
}

describe.each(LOG_STORES)('usage and the 95th percentile on $store', (target) => {
  let test: TestApp;
  let world: World;
  beforeEach(async () => {
    test = await startTestApp(target, { env: logStoreEnv(target) });
    const alice = await addUser(test, 'alice');
    const bob = await addUser(test, 'bob');
    const admin = await test.login('admin', ADMIN_PASSWORD);
    const shop = await createSite(test, alice, 'shop.example.com');
    const blog = await createSite(test, alice, 'blog.example.com');
    const bobs = await createSite(test, bob, 'bob.example.com');
    const node = await acceptedNode(test);
    const lines = fixture({ shop, blog, bobs });
    await shipLogs(test, node, 1, lines);
    const { id: aliceId } = await test.database.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'alice')
      .executeTakeFirstOrThrow();
    world = { alice, bob, admin, aliceId, shop, blog, node, lines };
  });
  afterEach(async () => {
    await test.close();
  });

  const usage = async (token: string, query: string) =>
    data<Usage>(await test.call('GET', `/v1/monitor/usage?${query}`, { token }));

  it('bills the month by the 95th percentile of its 5-minute samples, per user and per site', async () => {
    const alice = await usage(world.alice, `month=${MONTH}`);
    expect(alice).toMatchObject({
      month: MONTH,
      user_id: world.aliceId,
      from: '2026-09-01T00:00:00.000Z',
      to: '2026-10-01T00:00:00.000Z',
      samples: 8640,
    });
    // 445 non-zero samples of 8640: the 432 highest go (blog's 5 bursts, then shop's k = 440..14),
    // leaving shop's k = 13: 4875 bytes in 300 s = 130 bit/s.
    expect(alice.total).toEqual({
      bytes_in: 445 * 50,
      bytes_out: (375 * 440 * 441) / 2 + 5_000_000,
      requests: 445,
      p95_bps: 130,
      peak_bps: (1_000_000 * 8) / 300,
    });
    // A month that is over forecasts what it had.
    expect(alice.forecast).toEqual({ bytes_in: 445 * 50, bytes_out: alice.total.bytes_out, requests: 445 });
    // shop alone: 440 samples, the 432 highest go, k = 8 is billed (80 bit/s); blog's 5 bursts all go.
    expect(alice.sites.map((site) => [site.domain, site.p95_bps, site.requests])).toEqual([
      ['shop.example.com', 80, 440],
      ['blog.example.com', 0, 5],
    ]);
    expect(alice.days).toHaveLength(30);
    // 1 September holds shop's samples k = 1..288; its peak is k = 288.
    expect(alice.days[0]).toEqual({
      date: '2026-09-01',
      bytes_in: 288 * 50,
      bytes_out: (375 * 288 * 289) / 2,
      requests: 288,
      peak_bps: 2880,
    });
    expect(alice.days[9]).toMatchObject({ date: '2026-09-10', bytes_out: 5_000_000, peak_bps: (1_000_000 * 8) / 300 });
    expect(alice.days[29]).toMatchObject({ date: '2026-09-30', bytes_out: 0, peak_bps: 0 });

    const blog = await usage(world.alice, `month=${MONTH}&site_id=${world.blog}`);
    expect(blog.total).toMatchObject({ bytes_out: 5_000_000, p95_bps: 0 });
    expect(blog.sites.map((site) => site.site_id)).toEqual([world.blog]);
  });

  it('counts a batch sent again once, and the samples equal the sums of the raw lines', async () => {
    await shipLogs(test, world.node, 1, world.lines);
    expect((await usage(world.alice, `month=${MONTH}`)).total).toMatchObject({ requests: 445, p95_bps: 130 });
    const bucket = bucketOf(test.events.db, 300);
    const raw = await sql<Record<string, number | string>>`select site_id, ${bucket} as bucket,
        count(*) as requests, sum(bytes_received) as bytes_in, sum(bytes_sent) as bytes_out
      from access_logs where site_id > 0 group by site_id, ${bucket} order by site_id, bucket`.execute(test.events.db);
    // Summed per key: ClickHouse may hold a (site, bucket) in several rows until it merges them.
    const readSamples = () =>
      sql<Record<string, number | string>>`select site_id, bucket, sum(requests) as requests,
          sum(bytes_in) as bytes_in, sum(bytes_out) as bytes_out
        from site_traffic_5min group by site_id, bucket order by site_id, bucket`
        .execute(test.events.db)
        .then((result) => result.rows);
    const samples = await readSamples();
    const numbers = (rows: Record<string, unknown>[]) =>
      rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])));
    expect(numbers(samples)).toEqual(numbers(raw.rows));
    expect(samples).toHaveLength(446);

    // The migration rolls up the lines stored before it the same way (ClickHouse's views do it as they arrive).
    if (target.store === 'clickhouse') return;
    await test.database.logs.schema.dropTable('site_traffic_5min').execute();
    await usage5min().up(test.database.logs);
    const backfilled = await test.database.logs
      .selectFrom('site_traffic_5min')
      .selectAll()
      .orderBy('site_id')
      .orderBy('bucket')
      .execute();
    expect(numbers(backfilled)).toEqual(numbers(raw.rows));
  });

  it('forecasts the current month linearly and answers an empty month with zeros', async () => {
    const now = await usage(world.alice, '');
    expect(now.month).toBe(new Date().toISOString().slice(0, 7));
    expect(now.total).toEqual({ bytes_in: 0, bytes_out: 0, requests: 0, p95_bps: 0, peak_bps: 0 });
    expect(now.forecast).toEqual({ bytes_in: 0, bytes_out: 0, requests: 0 });
    expect(now.days.length).toBe(new Date().getUTCDate());
    expect(now.samples).toBeGreaterThan(0);

    const today = Date.now();
    await shipLogs(test, world.node, 2, [logLine({ site_id: world.shop, time: today / 1000, bytes_sent: 6000 })]);
    const current = await usage(world.alice, '');
    const monthStart = Date.UTC(new Date(today).getUTCFullYear(), new Date(today).getUTCMonth(), 1);
    const monthEnd = Date.UTC(new Date(today).getUTCFullYear(), new Date(today).getUTCMonth() + 1, 1);
    // At least the linear extension at the time of the line, at most at the time of the answer.
    const atLine = (6000 * (monthEnd - monthStart)) / (today - monthStart);
    expect(current.forecast.bytes_out).toBeLessThanOrEqual(Math.round(atLine));
    expect(current.forecast.bytes_out).toBeGreaterThan(6000);
    expect(current.total.bytes_out).toBe(6000);
  });

  it('totals whole days of a period', async () => {
    const count = async (token: string, query: string) =>
      data<UsageCount>(await test.call('GET', `/v1/monitor/usage-count?${query}`, { token }));
    expect(await count(world.alice, 'from=2026-09-01&to=2026-09-30')).toEqual({
      from: '2026-09-01',
      to: '2026-09-30',
      bytes_in: 445 * 50,
      bytes_out: (375 * 440 * 441) / 2 + 5_000_000,
      requests: 445,
      cache_hits: 0,
      blocked: 0,
    });
    expect(await count(world.alice, `from=2026-09-10&to=2026-09-10&site_id=${world.blog}`)).toMatchObject({
      bytes_out: 5_000_000,
      requests: 5,
    });
    const reversed = await test.call('GET', '/v1/monitor/usage-count?from=2026-09-10&to=2026-09-09', {
      token: world.alice,
    });
    expect(reversed.body).toMatchObject({ code: 'invalid_param', msg: 'to: must not be before from' });
    const long = await test.call('GET', '/v1/monitor/usage-count?from=2024-01-01&to=2026-09-09', {
      token: world.alice,
    });
    expect(long.body).toMatchObject({ code: 'invalid_param', msg: 'from: the range is at most 366 days' });
    const impossible = await test.call('GET', '/v1/monitor/usage-count?from=2026-02-30', { token: world.alice });
    expect(impossible.body).toMatchObject({ code: 'invalid_param', msg: 'from: 2026-02-30 is not a date' });
  });

  it("never shows a user another user's usage; admins name the user", async () => {
    const bob = await usage(world.bob, `month=${MONTH}`);
    expect(bob.total.bytes_out).toBe(99);
    expect(bob.sites.map((site) => site.domain)).toEqual(['bob.example.com']);
    for (const path of ['/v1/monitor/usage', '/v1/monitor/usage-count']) {
      const foreignUser = await test.call('GET', `${path}?user_id=${world.aliceId}`, { token: world.bob });
      expect(foreignUser.body, path).toMatchObject({
        code: 'forbidden',
        msg: 'user_id: only an administrator reads the usage of another user',
      });
    }
    for (const path of ['/v1/monitor/usage', '/v1/monitor/usage-count']) {
      const foreignSite = await test.call('GET', `${path}?site_id=${world.shop}`, { token: world.bob });
      expect(foreignSite.body, path).toMatchObject({
        code: 'not_found',
        msg: `site_id: site ${world.shop} does not exist`,
      });
    }
    const asAdmin = await usage(world.admin, `month=${MONTH}&user_id=${world.aliceId}`);
    expect(asAdmin.total).toMatchObject({ bytes_out: (375 * 440 * 441) / 2 + 5_000_000, p95_bps: 130 });
    const nobody = await test.call('GET', '/v1/monitor/usage?user_id=999999', { token: world.admin });
    expect(nobody.body).toMatchObject({ code: 'not_found', msg: 'user_id: user 999999 does not exist' });
    // The admin's own usage: they own no site.
    expect((await usage(world.admin, `month=${MONTH}`)).total.bytes_out).toBe(0);
  });

  it('refuses months that are malformed or to come', async () => {
    const future = await test.call('GET', '/v1/monitor/usage?month=2999-01', { token: world.alice });
    expect(future.body).toMatchObject({ code: 'invalid_param', msg: 'month: 2999-01 has not begun' });
    const malformed = await test.call('GET', '/v1/monitor/usage?month=2026-13', { token: world.alice });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_param');
    expect(malformed.body.msg).toContain('month');
  });

  it('ranks the users by their usage of the month for admins only', async () => {
    const refused = await test.call('GET', `/v1/monitor/user-package?month=${MONTH}`, { token: world.bob });
    expect(refused.body).toMatchObject({ code: 'forbidden' });
    const ranking = data<UserUsageList>(
      await test.call('GET', `/v1/monitor/user-package?month=${MONTH}`, { token: world.admin }),
    );
    expect(ranking.total).toBe(2);
    expect(
      ranking.list.map((row) => [row.account, row.sites, row.bytes_out, row.p95_bps, row.forecast_bytes_out]),
    ).toEqual([
      ['alice', 2, (375 * 440 * 441) / 2 + 5_000_000, 130, (375 * 440 * 441) / 2 + 5_000_000],
      ['bob', 1, 99, 0, 99],
    ]);
    const second = data<UserUsageList>(
      await test.call('GET', `/v1/monitor/user-package?month=${MONTH}&page=2&limit=1`, { token: world.admin }),
    );
    expect(second.list.map((row) => row.account)).toEqual(['bob']);
  });

  it("answers a user package's usage: only the sites and streams that count against it, for its owner and admins", async () => {
    const grant = async (userId: number) => {
      const pkg = data(
        await test.call('POST', '/v1/packages', {
          token: world.admin,
          body: { name: `p${userId}`, price_month: 100, max_sites: 5, max_domains: 5 },
        }),
      ).id;
      return data(
        await test.call('POST', '/v1/user-packages', {
          token: world.admin,
          body: { package_id: pkg, user_id: userId },
        }),
      ).id;
    };
    const alicePackage = await grant(world.aliceId);
    // Her only active package takes the two sites she made before it; count none to begin with.
    const attached = await test.database.db
      .updateTable('sites')
      .set({ user_package_id: null })
      .where('user_id', '=', world.aliceId)
      .where('user_package_id', '=', alicePackage)
      .executeTakeFirstOrThrow();
    expect(Number(attached.numUpdatedRows)).toBe(2);
    const own = data<UserPackageUsage>(
      await test.call('GET', `/v1/user-package/${alicePackage}/usage?month=${MONTH}`, { token: world.alice }),
    );
    expect(own).toMatchObject({ user_package_id: alicePackage, user_id: world.aliceId, total: { bytes_out: 0 } });
    await test.database.db
      .updateTable('sites')
      .set({ user_package_id: alicePackage })
      .where('id', '=', world.shop)
      .execute();
    const counted = data<UserPackageUsage>(
      await test.call('GET', `/v1/user-package/${alicePackage}/usage?month=${MONTH}`, { token: world.admin }),
    );
    expect(counted.sites.map((site) => site.site_id)).toEqual([world.shop]);
    expect(counted.total.bytes_out).toBeGreaterThan(0);
    expect(counted).toMatchObject({ streams: [], counted_bytes_out: counted.total.bytes_out });

    // Its streams' traffic of the month counts against it too (a day of August does not).
    const stream = await test.database.db
      .insertInto('streams')
      .values({
        user_id: world.aliceId,
        user_package_id: alicePackage,
        group_id: null,
        name: 'game',
        listen_port: 30_950,
        protocol: 'tcp',
        settings: '{}',
        enabled: 1,
        version: 1,
        created_at: SEPT,
        updated_at: SEPT,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const streamDay = (bucket: number, bytesOut: number) => ({
      stream_id: stream.id,
      bucket,
      connections: 1,
      failed: 0,
      bytes_in: 7,
      bytes_out: bytesOut,
      session_ms: 1000,
    });
    await test.events.db
      .insertInto('stream_traffic_days')
      .values([streamDay(SEPT / 1000 + 86_400, 5_000), streamDay(SEPT / 1000 - 86_400, 1_000_000)])
      .execute();
    const withStream = data<UserPackageUsage>(
      await test.call('GET', `/v1/user-package/${alicePackage}/usage?month=${MONTH}`, { token: world.alice }),
    );
    expect(withStream.streams).toEqual([{ stream_id: stream.id, name: 'game', bytes_in: 7, bytes_out: 5_000 }]);
    expect(withStream.total.bytes_out).toBe(counted.total.bytes_out);
    expect(withStream.counted_bytes_out).toBe(counted.total.bytes_out + 5_000);
    const foreign = await test.call('GET', `/v1/user-package/${alicePackage}/usage`, { token: world.bob });
    expect(foreign.status).toBe(404);
    const bad = await test.call('GET', '/v1/user-package/0/usage', { token: world.alice });
    expect(bad.body.code).toBe('invalid_param');
  });
});
