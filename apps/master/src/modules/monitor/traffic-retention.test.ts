import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureDayPartitions } from '../../db/partitions.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { pruneTrafficData, retainedRollup } from './traffic-retention.ts';
import { TRAFFIC_ROLLUPS } from './traffic-rollup.repository.ts';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const KEPT = { access_log_days: 31, minute_rollup_days: 7, hour_rollup_days: 90, usage_sample_days: 100 };

describe('retainedRollup', () => {
  const pick = (fromAgeDays: number, spanHours: number) =>
    retainedRollup(
      TRAFFIC_ROLLUPS,
      { fromMs: NOW - fromAgeDays * DAY_MS, toMs: NOW - fromAgeDays * DAY_MS + spanHours * 3_600_000, now: NOW },
      KEPT,
      1000,
    ).table;

  it('reads the finest rollup that fits the range and still holds its start', () => {
    expect(pick(0.5, 1)).toBe('site_traffic_minutes');
    expect(pick(6, 1)).toBe('site_traffic_minutes');
    // An hour eight days ago: the minutes are gone, the hours are not.
    expect(pick(8, 1)).toBe('site_traffic_hours');
    expect(pick(30, 24 * 30)).toBe('site_traffic_hours');
    // A day 100 days ago: only the days are left.
    expect(pick(100, 24)).toBe('site_traffic_days');
    expect(pick(200, 24 * 200)).toBe('site_traffic_days');
  });
});

describe.each(DIALECTS)('traffic retention on $dialect', (target) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(target, { migrated: true });
  });
  afterEach(async () => {
    await database.dispose();
  });

  const ages = [0.2, 3, 10, 40, 95, 120];
  const at = (days: number) => Math.round(NOW - days * DAY_MS);
  const seconds = (days: number) => Math.floor(at(days) / 1000 / 60) * 60;

  const seed = async () => {
    const { logs, dialect } = database;
    await ensureDayPartitions(logs, dialect, 'access_logs', 'ms', ages.map(at));
    await ensureDayPartitions(logs, dialect, 'node_metrics', 's', ages.map(seconds));
    for (const [index, days] of ages.entries()) {
      await logs
        .insertInto('access_logs')
        .values({
          node_id: 1,
          site_id: 1,
          time_ms: at(days),
          client_ip: '203.0.113.9',
          method: 'GET',
          host: 'a.example.com',
          uri: '/',
          status: 200,
          bytes_sent: 10,
          bytes_received: 5,
          request_time_ms: 1,
          upstream_time_ms: null,
          cache_status: 'MISS',
          user_agent: 'ua',
          referer: '',
          block_reason: '',
          client_ip_key: null,
        })
        .execute();
      await logs
        .insertInto('log_batches')
        .values({ node_id: 1, seq: index + 1, lines: 1, received_at: at(days) })
        .execute();
      await logs
        .insertInto('node_metrics')
        .values({
          node_id: 1,
          time: seconds(days),
          cpu_percent: 1,
          memory_used_bytes: 1,
          memory_total_bytes: 2,
          load1: 0.1,
          connections: 1,
          bytes_in: 1,
          bytes_out: 1,
        })
        .execute();
      const counts = {
        requests: 1,
        bytes_in: 1,
        bytes_out: 1,
        status_2xx: 1,
        status_3xx: 0,
        status_4xx: 0,
        status_5xx: 0,
        cache_hits: 0,
        blocked: 0,
      };
      for (const table of ['site_traffic_minutes', 'site_traffic_hours', 'site_traffic_days'] as const) {
        await logs
          .insertInto(table)
          .values({ site_id: 1, bucket: seconds(days), ...counts })
          .execute();
      }
      await logs
        .insertInto('site_traffic_5min')
        .values({ site_id: 1, bucket: seconds(days), requests: 1, bytes_in: 1, bytes_out: 1 })
        .execute();
    }
  };

  const remainingAges = async (
    table:
      | 'access_logs'
      | 'log_batches'
      | 'node_metrics'
      | 'site_traffic_minutes'
      | 'site_traffic_hours'
      | 'site_traffic_days'
      | 'site_traffic_5min',
  ) => {
    const { logs } = database;
    const column =
      table === 'access_logs'
        ? 'time_ms'
        : table === 'log_batches'
          ? 'received_at'
          : table === 'node_metrics'
            ? 'time'
            : 'bucket';
    const scale = column === 'time_ms' || column === 'received_at' ? 1 : 1000;
    const rows = await logs.selectFrom(table).select(column).execute();
    return rows
      .map((row) => Math.round(((NOW - Number((row as Record<string, unknown>)[column]) * scale) / DAY_MS) * 10) / 10)
      .sort((a, b) => a - b);
  };

  it('drops each tier past its retention and keeps the rest, the day rollups for good', async () => {
    await seed();
    await pruneTrafficData(database.logs, database.dialect, KEPT, NOW);
    // Raw lines: 31 days (on PostgreSQL whole day partitions go: the 40-day-old one is gone).
    expect(await remainingAges('access_logs')).toEqual([0.2, 3, 10]);
    expect(await remainingAges('log_batches')).toEqual([0.2, 3, 10]);
    expect(await remainingAges('node_metrics')).toEqual([0.2, 3]);
    expect(await remainingAges('site_traffic_minutes')).toEqual([0.2, 3]);
    expect(await remainingAges('site_traffic_hours')).toEqual([0.2, 3, 10, 40]);
    expect(await remainingAges('site_traffic_5min')).toEqual([0.2, 3, 10, 40, 95]);
    expect(await remainingAges('site_traffic_days')).toEqual(ages);

    // A second round finds nothing more; a late line for a dropped day still finds a partition.
    expect(await pruneTrafficData(database.logs, database.dialect, KEPT, NOW)).toEqual({});
    await ensureDayPartitions(database.logs, database.dialect, 'access_logs', 'ms', [at(40)]);
    await database.logs
      .insertInto('access_logs')
      .values({
        node_id: 1,
        site_id: 1,
        time_ms: at(40),
        client_ip: '203.0.113.9',
        method: 'GET',
        host: 'a.example.com',
        uri: '/late',
        status: 200,
        bytes_sent: 10,
        bytes_received: 5,
        request_time_ms: 1,
        upstream_time_ms: null,
        cache_status: 'MISS',
        user_agent: 'ua',
        referer: '',
        block_reason: '',
        client_ip_key: null,
      })
      .execute();
    expect(await remainingAges('access_logs')).toEqual([0.2, 3, 10, 40]);
  });
});
