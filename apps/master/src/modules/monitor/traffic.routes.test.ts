import type { SiteRealtime, SiteTop, TrafficCounts } from '@rampart/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_STORES, logStoreEnv } from '../../test/clickhouse.ts';
import { data, logLine, shipLogs } from '../../test/protection.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { type MonitorWorld, monitorWorld } from './monitor-fixture.ts';
import { SITE_TOTALS, TRAFFIC_ROLLUPS } from './traffic-rollup.repository.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The lines summed per (site, interval) here, independently of the ingest's own code, sorted like the rollup read. */
function rawSums(
  lines: {
    site_id: number;
    time_ms: number;
    bytes_received: number;
    bytes_sent: number;
    status: number;
    cache_status: string;
    block_reason: string;
  }[],
  seconds: number,
) {
  type Sums = Record<'site_id' | 'bucket' | 'requests' | 'bytes_in' | 'bytes_out' | 'cache_hits' | 'blocked', number> &
    Record<string, number>;
  const sums = new Map<string, Sums>();
  for (const line of lines) {
    const bucket = Math.floor(Number(line.time_ms) / 1000 / seconds) * seconds;
    const key = `${line.site_id}:${bucket}`;
    const row: Sums = sums.get(key) ?? {
      site_id: Number(line.site_id),
      bucket,
      requests: 0,
      bytes_in: 0,
      bytes_out: 0,
      status_2xx: 0,
      status_3xx: 0,
      status_4xx: 0,
      status_5xx: 0,
      cache_hits: 0,
      blocked: 0,
    };
    sums.set(key, row);
    row.requests += 1;
    row.bytes_in += Number(line.bytes_received);
    row.bytes_out += Number(line.bytes_sent);
    row[`status_${Math.floor(line.status / 100)}xx`] = (row[`status_${Math.floor(line.status / 100)}xx`] ?? 0) + 1;
    if (line.cache_status === 'HIT') row.cache_hits += 1;
    if (line.block_reason !== '') row.blocked += 1;
  }
  return [...sums.values()].sort((a, b) => a.site_id - b.site_id || a.bucket - b.bucket);
}

describe.each(LOG_STORES)('site realtime and top on $store', (target) => {
  let test: TestApp;
  let world: MonitorWorld;
  beforeEach(async () => {
    test = await startTestApp(target, { env: logStoreEnv(target) });
    world = await monitorWorld(test);
  });
  afterEach(async () => {
    await test.close();
  });

  const realtime = async (token: string, query: string) =>
    data<SiteRealtime>(await test.call('GET', `/v1/monitor/site/realtime?${query}`, { token }));
  const top = async (token: string, query: string) =>
    data<SiteTop>(await test.call('GET', `/v1/monitor/site/top?${query}`, { token }));

  it('rolls up by minute, hour and day to exactly the sums of the raw lines, once per batch', async () => {
    // The same batch again (a lost acknowledgement) and a second batch in the same buckets.
    await shipLogs(test, world.node, 1, world.lines);
    await shipLogs(test, world.node, 2, [logLine({ site_id: world.shop, time: world.t0 / 1000 + 1, bytes_sent: 5 })]);
    for (const { table, seconds } of TRAFFIC_ROLLUPS) {
      const raw = rawSums(
        await test.events.db
          .selectFrom('access_logs')
          .select(['site_id', 'time_ms', 'bytes_received', 'bytes_sent', 'status', 'cache_status', 'block_reason'])
          .where('site_id', '>', 0)
          .execute(),
        seconds,
      );
      // Summed per key: ClickHouse may hold a (site, bucket) in several rows until it merges them.
      const rolled = await sql<Record<string, number | string>>`select site_id, bucket, sum(requests) as requests,
          sum(bytes_in) as bytes_in, sum(bytes_out) as bytes_out, sum(status_2xx) as status_2xx,
          sum(status_3xx) as status_3xx, sum(status_4xx) as status_4xx, sum(status_5xx) as status_5xx,
          sum(cache_hits) as cache_hits, sum(blocked) as blocked
        from ${sql.table(table)} group by site_id, bucket order by site_id, bucket`
        .execute(test.events.db)
        .then((result) => result.rows);
      const numbers = (rows: Record<string, unknown>[]) =>
        rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])));
      expect(numbers(rolled), table).toEqual(raw);
      expect(rolled.length, table).toBeGreaterThan(1);
      // Every site together: the same sums per interval alone.
      const totals = SITE_TOTALS.find((entry) => entry.rollup === table)?.table ?? 'site_totals_days';
      const together = await sql<Record<string, number | string>>`select bucket, sum(requests) as requests,
          sum(bytes_in) as bytes_in, sum(bytes_out) as bytes_out, sum(status_2xx) as status_2xx,
          sum(status_3xx) as status_3xx, sum(status_4xx) as status_4xx, sum(status_5xx) as status_5xx,
          sum(cache_hits) as cache_hits, sum(blocked) as blocked
        from ${sql.table(totals)} group by bucket order by bucket`.execute(test.events.db);
      const perBucket = new Map<number, Record<string, number>>();
      for (const { site_id: _site, ...row } of raw) {
        const sum = perBucket.get(row.bucket);
        if (!sum) perBucket.set(row.bucket, { ...row });
        else for (const [key, value] of Object.entries(row)) if (key !== 'bucket') sum[key] = (sum[key] ?? 0) + value;
      }
      expect(numbers(together.rows), totals).toEqual(
        [...perBucket.values()].sort((a, b) => (a.bucket ?? 0) - (b.bucket ?? 0)),
      );
    }
    const [minute] = await test.events.db
      .selectFrom('site_traffic_minutes')
      .select([
        sql`sum(requests)`.as('requests'),
        sql`sum(bytes_out)`.as('bytes_out'),
        sql`sum(cache_hits)`.as('cache_hits'),
      ])
      .where('site_id', '=', world.shop)
      .where('bucket', '=', world.t0 / 1000)
      .execute();
    expect(minute && Object.values(minute).map(Number)).toEqual([3, 2005, 1]);
  });

  it('charts per minute, hour or day by the range, with every interval and the totals', async () => {
    const { alice, t0, shop, blog } = world;
    const hour = await realtime(alice, `site_id=${shop}&from=${iso(t0)}&to=${iso(t0 + HOUR_MS)}`);
    expect(hour.interval).toBe(60);
    expect(hour.points).toHaveLength(60);
    expect(hour.points[0]).toMatchObject({ time: iso(t0), requests: 2, status_2xx: 2, cache_hits: 1, bytes_out: 2000 });
    expect(hour.points[1]).toMatchObject({ time: iso(t0 + 60_000), requests: 1, status_3xx: 1 });
    expect(hour.points[2]).toMatchObject({ requests: 0, bytes_out: 0 });
    expect(hour.totals).toMatchObject({ requests: 3, bytes_out: 2010 });

    const month = await realtime(alice, `from=${iso(t0 - 25 * DAY_MS)}&to=${iso(t0 + 5 * DAY_MS)}`);
    expect(month.interval).toBe(3600);
    expect(month.points.length).toBeLessThanOrEqual(1000);
    const want: Partial<TrafficCounts> = {
      requests: 8,
      bytes_out: 2342,
      status_2xx: 4,
      status_3xx: 1,
      status_4xx: 2,
      status_5xx: 1,
      cache_hits: 2,
      blocked: 1,
    };
    expect(month.totals).toMatchObject(want);
    expect(month.points.reduce((sum, point) => sum + point.requests, 0)).toBe(8);

    const year = await realtime(alice, `from=${iso(t0 - 300 * DAY_MS)}&to=${iso(t0 + 2 * DAY_MS)}`);
    expect(year.interval).toBe(86_400);
    expect(year.points.at(-2)).toMatchObject({ time: iso(t0), requests: 6 });
    expect(year.points.at(-1)).toMatchObject({ time: iso(t0 + DAY_MS), requests: 2 });

    const group = await realtime(alice, `group_id=${world.groupId}&from=${iso(t0)}&to=${iso(t0 + 2 * DAY_MS)}`);
    expect(group.totals.requests).toBe(5);
    const blogOnly = await realtime(alice, `site_id=${blog}&from=${iso(t0)}&to=${iso(t0 + 2 * DAY_MS)}`);
    expect(blogOnly.totals).toMatchObject({ requests: 3, status_5xx: 1 });
  });

  it('lists the top URLs, addresses, referers, agents, statuses and hosts of the range', async () => {
    const { alice, t0 } = world;
    const range = `from=${iso(t0)}&to=${iso(t0 + 2 * DAY_MS)}`;
    expect((await top(alice, `by=url&${range}`)).list).toEqual([
      { key: '/a', requests: 4, bytes_out: 2027 },
      { key: '/c', requests: 2, bytes_out: 300 },
      { key: '/b', requests: 1, bytes_out: 10 },
      { key: '/login', requests: 1, bytes_out: 5 },
    ]);
    expect((await top(alice, `by=url&limit=1&${range}`)).list).toEqual([{ key: '/a', requests: 4, bytes_out: 2027 }]);
    expect((await top(alice, `by=ip&limit=2&${range}`)).list.map((row) => [row.key, row.requests])).toEqual([
      ['198.51.100.7', 5],
      ['203.0.113.9', 2],
    ]);
    expect((await top(alice, `by=status&limit=2&${range}`)).list.map((row) => [row.key, row.requests])).toEqual([
      ['200', 3],
      ['204', 1],
    ]);
    expect((await top(alice, `by=host&${range}`)).list.map((row) => row.key)).toEqual([
      'www.example.com',
      'blog.example.com',
    ]);
    expect((await top(alice, `by=referer&limit=1&${range}`)).list[0]?.key).toBe('');
    expect((await top(alice, `by=user_agent&${range}`)).list.map((row) => row.key)).toEqual(['test', 'curl/8']);
    // Lines of an unknown country count under ''.
    expect((await top(alice, `by=country&${range}`)).list.map((row) => [row.key, row.requests])).toEqual([
      ['', 7],
      ['IR', 1],
    ]);
    expect((await top(alice, `by=url&site_id=${world.blog}&${range}`)).list.map((row) => row.key)).toEqual([
      '/c',
      '/a',
    ]);
  });

  it('shows each user only their own sites, and admins every site', async () => {
    const { alice, bob, shop, t0 } = world;
    const range = `from=${iso(t0)}&to=${iso(t0 + 2 * DAY_MS)}`;
    expect((await realtime(bob, range)).totals.requests).toBe(1);
    expect((await top(bob, `by=url&${range}`)).list.map((row) => row.key)).toEqual(['/bob']);
    for (const path of ['realtime?', 'top?by=url&']) {
      const foreign = await test.call('GET', `/v1/monitor/site/${path}site_id=${shop}&${range}`, { token: bob });
      expect(foreign.body).toMatchObject({ code: 'not_found', msg: `site_id: site ${shop} does not exist` });
      const group = await test.call('GET', `/v1/monitor/site/${path}group_id=${world.groupId}&${range}`, {
        token: bob,
      });
      expect(group.body).toMatchObject({
        code: 'not_found',
        msg: `group_id: site group ${world.groupId} does not exist`,
      });
    }
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await realtime(admin, range)).totals.requests).toBe(9);
    expect((await realtime(admin, `site_id=${shop}&${range}`)).totals.requests).toBe(5);
    expect((await top(alice, `by=url&${range}`)).list.map((row) => row.key)).not.toContain('/bob');
  });

  it('refuses reversed, too long, too old and malformed ranges, naming the field', async () => {
    const { alice, t0 } = world;
    const refused = async (path: string, query: string, msg: string) => {
      const result = await test.call('GET', `/v1/monitor/site/${path}?${query}`, { token: alice });
      expect(result.body, query).toMatchObject({ code: 'invalid_param', msg });
      expect(result.status).toBe(400);
    };
    await refused('realtime', `from=${iso(t0 + HOUR_MS)}&to=${iso(t0)}`, 'to: must be after from');
    await refused('realtime', `from=${iso(t0 - 400 * DAY_MS)}&to=${iso(t0)}`, 'from: the range is at most 366 days');
    await refused('top', `by=url&from=${iso(t0 - 35 * DAY_MS)}&to=${iso(t0)}`, 'from: the range is at most 31 days');
    await refused(
      'top',
      `by=url&from=${iso(t0 - 40 * DAY_MS)}&to=${iso(t0 - 39 * DAY_MS)}`,
      'from: the access log keeps 31 days: start later',
    );
    await refused(
      'top',
      'by=cookies',
      'querystring/by: must be one of url, ip, referer, user_agent, status, host, country (ISO 3166-1 alpha-2; empty: unknown)',
    );
    await refused('top', 'by=url&limit=100000', 'querystring/limit: must be a whole number from 1 to 100');
    await refused(
      'realtime',
      'from=yesterday',
      'querystring/from: must be an ISO 8601 time such as 2026-11-22T10:00:00Z, or Unix seconds',
    );
    await refused(
      'realtime',
      'from=2026-02-32T00:00:00Z&to=2026-03-05T00:00:00Z',
      'from: 2026-02-32T00:00:00Z is not a time',
    );
  });
});
