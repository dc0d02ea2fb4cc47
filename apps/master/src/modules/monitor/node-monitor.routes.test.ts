import type { NodeIpLog, NodeMonitorList, NodeRealtime, NodeTop } from '@rampart/contracts';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_STORES, logStoreEnv } from '../../test/clickhouse.ts';
import { acceptedNode, createSite, data, type EdgeNode, logLine, shipLogs } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { dayStart } from './monitor-fixture.ts';
import { NODE_ROLLUPS } from './node-rollup.repository.ts';
import { metricsReport, sendMetrics, shipStreamLines, siteMinute, streamLine } from './stream-node-fixture.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(LOG_STORES)('node monitoring on $store', (target) => {
  let test: TestApp;
  let admin: string;
  let edge: EdgeNode;
  let other: EdgeNode;
  let t0: number;
  let s0: number;
  beforeEach(async () => {
    test = await startTestApp(target, { env: logStoreEnv(target) });
    admin = await test.login('admin', ADMIN_PASSWORD);
    edge = await acceptedNode(test);
    other = await acceptedNode(test);
    t0 = dayStart();
    s0 = t0 / 1000;
  });
  afterEach(async () => {
    await test.close();
  });

  const get = async <T>(path: string, query = '', token = admin) =>
    data<T>(await test.call('GET', `/v1/monitor/${path}?${query}`, { token }));

  /** An older agent's report (no disk, load5/15 or requests) and newer ones, over two minutes and an hour. */
  const reportHistory = async () => {
    await sendMetrics(
      test,
      edge,
      metricsReport({ time: s0, cpu_percent: 10, bytes_out: 1000, memory_used_bytes: 100 }),
    );
    const extended = { load5: 0.4, load15: 0.2, disk_used_bytes: 500, disk_total_bytes: 2000, requests: 7 };
    await sendMetrics(
      test,
      edge,
      metricsReport({ time: s0 + 10, cpu_percent: 30, memory_used_bytes: 300, ...extended }),
    );
    // The same report again (a retry after a lost answer) is not counted twice.
    await sendMetrics(
      test,
      edge,
      metricsReport({ time: s0 + 10, cpu_percent: 30, memory_used_bytes: 300, ...extended }),
    );
    await sendMetrics(test, edge, metricsReport({ time: s0 + 70, cpu_percent: 50, ...extended, disk_used_bytes: 700 }));
    await sendMetrics(test, edge, metricsReport({ time: s0 + 3600, ...extended, requests: 3 }));
    await sendMetrics(
      test,
      other,
      metricsReport({ time: s0 + 5, cpu_percent: 90, memory_used_bytes: 1000, ...extended }),
    );
  };

  it('rolls reports up by minute, hour and day to the sums of the stored reports, a repeat counted once', async () => {
    await reportHistory();
    for (const { table, seconds } of NODE_ROLLUPS) {
      const raw = await sql<
        Record<string, number | string>
      >`select node_id, (time / ${sql.lit(seconds)}) * ${sql.lit(seconds)} as bucket,
          count(*) as reports, sum(bytes_in) as bytes_in, sum(bytes_out) as bytes_out, sum(coalesce(requests, 0)) as requests,
          sum(connections) as connections_sum, sum(cpu_percent) as cpu_sum, sum(memory_used_bytes) as memory_used_sum,
          sum(coalesce(disk_used_bytes, 0)) as disk_used_sum
        from node_metrics group by node_id, time / ${sql.lit(seconds)} order by node_id, bucket`.execute(
        test.database.logs,
      );
      const rolled = await test.database.logs
        .selectFrom(table)
        .select([
          'node_id',
          'bucket',
          'reports',
          'bytes_in',
          'bytes_out',
          'requests',
          'connections_sum',
          'cpu_sum',
          'memory_used_sum',
          'disk_used_sum',
        ])
        .orderBy('node_id')
        .orderBy('bucket')
        .execute();
      const numbers = (rows: Record<string, unknown>[]) =>
        rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])));
      expect(numbers(rolled), table).toEqual(numbers(raw.rows));
    }
    const [minute] = await test.database.logs
      .selectFrom('node_metric_minutes')
      .select(['reports', 'extended_reports'])
      .where('node_id', '=', edge.nodeId)
      .where('bucket', '=', s0)
      .execute();
    expect(minute && [Number(minute.reports), Number(minute.extended_reports)]).toEqual([2, 1]);
  });

  it('charts a node per minute with means of its gauges, and every node summed, with null for what was not reported', async () => {
    await reportHistory();
    const hour = await get<NodeRealtime>(
      'node/realtime',
      `node_id=${edge.nodeId}&from=${iso(t0)}&to=${iso(t0 + HOUR_MS)}`,
    );
    expect(hour.interval).toBe(60);
    expect(hour.points).toHaveLength(60);
    expect(hour.points[0]).toEqual({
      time: iso(t0),
      reports: 2,
      bytes_in: 200,
      bytes_out: 1900,
      requests: 7,
      connections: 4,
      cpu_percent: 20,
      memory_used_bytes: 200,
      memory_total_bytes: 4000,
      // Only the newer agent's report carries disk and load5/15.
      disk_used_bytes: 500,
      disk_total_bytes: 2000,
      load1: 0.5,
      load5: 0.4,
      load15: 0.2,
    });
    expect(hour.points[1]).toMatchObject({ reports: 1, cpu_percent: 50, disk_used_bytes: 700 });
    expect(hour.points[2]).toMatchObject({ reports: 0, cpu_percent: null, disk_used_bytes: null, bytes_out: 0 });
    expect(hour.totals).toEqual({ bytes_in: 300, bytes_out: 2800, requests: 14 });

    const fleet = await get<NodeRealtime>('node/realtime', `from=${iso(t0)}&to=${iso(t0 + HOUR_MS)}`);
    // CPU is the mean over the nodes; memory is summed over them.
    expect(fleet.points[0]).toMatchObject({ reports: 3, cpu_percent: 55, memory_used_bytes: 1200, bytes_out: 2800 });
    const days = await get<NodeRealtime>('node/realtime', `from=${iso(t0 - 300 * DAY_MS)}&to=${iso(t0 + DAY_MS)}`);
    expect(days.interval).toBe(86_400);
    expect(days.points.at(-1)).toMatchObject({ time: iso(t0), reports: 5, requests: 24 });
  });

  it('lists the sites a node served by traffic, and the client addresses it saw', async () => {
    const alice = await addUser(test, 'alice');
    const shop = await createSite(test, alice, 'shop.example.com');
    const blog = await createSite(test, alice, 'blog.example.com');
    const sites = [
      siteMinute({ site_id: shop, minute: s0, requests: 5, bytes_out: 5000 }),
      siteMinute({ site_id: blog, minute: s0 + 60, requests: 50, bytes_out: 100 }),
      siteMinute({ site_id: 0, minute: s0 + 60, requests: 1, bytes_out: 10 }),
    ];
    await sendMetrics(test, edge, metricsReport({ time: s0 + 61, sites }));
    await sendMetrics(
      test,
      other,
      metricsReport({ time: s0 + 61, sites: [siteMinute({ site_id: blog, minute: s0, bytes_out: 90_000 })] }),
    );
    const range = `from=${iso(t0)}&to=${iso(t0 + HOUR_MS)}`;
    expect((await get<NodeTop>('node/top', `node_id=${edge.nodeId}&${range}`)).list).toEqual([
      { site_id: shop, site_name: 'shop.example.com', requests: 5, bytes_in: 10, bytes_out: 5000 },
      { site_id: blog, site_name: 'blog.example.com', requests: 50, bytes_in: 10, bytes_out: 100 },
      { site_id: 0, site_name: '', requests: 1, bytes_in: 10, bytes_out: 10 },
    ]);
    expect((await get<NodeTop>('node/top', `limit=1&${range}`)).list.map((row) => row.site_id)).toEqual([blog]);

    await shipLogs(test, edge, 1, [
      logLine({ site_id: shop, time: s0 + 1, client_ip: '203.0.113.9', bytes_sent: 10 }),
      logLine({ site_id: shop, time: s0 + 2, client_ip: '203.0.113.9', bytes_sent: 20 }),
      logLine({ site_id: shop, time: s0 + 3, client_ip: '198.51.100.7' }),
    ]);
    await shipStreamLines(test, edge, 2, [streamLine({ stream_id: 1, time: s0 + 4, client_ip: '203.0.113.9' })]);
    await shipLogs(test, other, 1, [logLine({ site_id: shop, time: s0 + 5, client_ip: '192.0.2.1' })]);
    const seen = await get<NodeIpLog>('node/ip-log', `node_id=${edge.nodeId}&${range}`);
    expect(seen.list).toEqual([
      {
        node_id: edge.nodeId,
        client_ip: '203.0.113.9',
        requests: 2,
        connections: 1,
        bytes_in: 200,
        bytes_out: 1030,
        first_seen: iso(t0 + 1000),
        last_seen: iso(t0 + 4000),
      },
      expect.objectContaining({ client_ip: '198.51.100.7', requests: 1, connections: 0 }),
    ]);
    const narrowed = await get<NodeIpLog>('node/ip-log', `ip=192.0.2.0/24&${range}`);
    expect(narrowed.list.map((row) => [row.node_id, row.client_ip])).toEqual([[other.nodeId, '192.0.2.1']]);
    expect((await get<NodeIpLog>('node/ip-log', `limit=1&${range}`)).list).toHaveLength(1);
  });

  it('lists every node with its state, newest report and the last minute', async () => {
    const now = Math.floor(Date.now() / 1000);
    await sendMetrics(test, edge, metricsReport({ time: now - 200, bytes_out: 50_000 }));
    await sendMetrics(test, edge, metricsReport({ time: now - 20, bytes_out: 300, requests: 2 }));
    await sendMetrics(
      test,
      edge,
      metricsReport({
        time: now - 5,
        bytes_out: 400,
        requests: 3,
        cpu_percent: 42,
        disk_used_bytes: 9,
        disk_total_bytes: 99,
      }),
    );
    await sendMetrics(test, other, metricsReport({ time: now - 10, nginx_up: false }));
    await test.call('PUT', `/v1/nodes/${other.nodeId}`, { token: admin, body: { enabled: false } });
    const nodes = await get<NodeMonitorList>('nodes');
    expect(nodes.total).toBe(2);
    expect(nodes.list[0]).toMatchObject({
      id: edge.nodeId,
      state: 'online',
      nginx_ok: true,
      // An older agent's report says nothing of nginx running.
      nginx_running: null,
      reported_at: iso((now - 5) * 1000),
      cpu_percent: 42,
      disk_total_bytes: 99,
      load5: null,
      connections: 4,
      last_minute: { bytes_in: 200, bytes_out: 700, requests: 5 },
    });
    expect(nodes.list[0]?.config_current).toBe(nodes.list[0]?.applied_version === nodes.config_version);
    expect(nodes.list[1]).toMatchObject({ id: other.nodeId, state: 'disabled', nginx_running: false, cpu_percent: 10 });
  });

  it('answers ordinary users forbidden on every node call, even with a bad query, and names unknown nodes', async () => {
    const bob = await addUser(test, 'bob');
    for (const path of ['node/realtime', 'node/top', 'node/ip-log', 'nodes']) {
      for (const query of ['', 'from=yesterday']) {
        const answer = await test.call('GET', `/v1/monitor/${path}?${query}`, { token: bob });
        expect(answer.status, path).toBe(403);
        expect(answer.body.code, path).toBe('forbidden');
      }
    }
    for (const path of ['node/realtime', 'node/top', 'node/ip-log']) {
      const missing = await test.call('GET', `/v1/monitor/${path}?node_id=999999`, { token: admin });
      expect(missing.body, path).toMatchObject({ code: 'not_found', msg: 'node_id: node 999999 does not exist' });
    }
    const reversed = await test.call('GET', `/v1/monitor/node/realtime?from=${iso(t0 + HOUR_MS)}&to=${iso(t0)}`, {
      token: admin,
    });
    expect(reversed.body).toMatchObject({ code: 'invalid_param', msg: 'to: must be after from' });
    const tooOld = await test.call(
      'GET',
      `/v1/monitor/node/ip-log?from=${iso(t0 - 40 * DAY_MS)}&to=${iso(t0 - 39 * DAY_MS)}`,
      {
        token: admin,
      },
    );
    expect(tooOld.body).toMatchObject({
      code: 'invalid_param',
      msg: 'from: the access log keeps 31 days: start later',
    });
  });
});
