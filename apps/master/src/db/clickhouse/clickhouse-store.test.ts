import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneTrafficData } from '../../modules/monitor/traffic-retention.ts';
import { storageBytes } from '../../modules/settings/storage.ts';
import { LOG_STORES } from '../../test/clickhouse.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { type EventStore, openEventStore } from '../events.ts';
import { parseLogsUrl } from './store.ts';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const KEPT = { access_log_days: 31, minute_rollup_days: 7, hour_rollup_days: 90, usage_sample_days: 100 };
const target = LOG_STORES.find((store) => store.store === 'clickhouse');

const line = (id: number, timeMs: number, extra: Record<string, unknown> = {}) => ({
  id,
  node_id: 1,
  site_id: 1,
  time_ms: timeMs,
  client_ip: '203.0.113.9',
  method: 'GET',
  host: 'a.example.com',
  uri: '/',
  status: 200,
  bytes_sent: 100,
  bytes_received: 10,
  request_time_ms: 1,
  upstream_time_ms: null,
  cache_status: 'MISS',
  user_agent: 'ua',
  referer: '',
  block_reason: '',
  client_ip_key: null,
  ...extra,
});

describe('RAMPART_LOGS_URL', () => {
  it('names the server and the database, and refuses anything else', () => {
    expect(parseLogsUrl('http://u:p%40ss@127.0.0.1:8123/logs')).toEqual({
      url: 'http://127.0.0.1:8123',
      database: 'logs',
      username: 'u',
      password: 'p@ss',
    });
    expect(parseLogsUrl('https://ch.example.com:8443').database).toBe('rampart');
    expect(() => parseLogsUrl('postgres://x/db')).toThrow(/http/);
    expect(() => parseLogsUrl('http://127.0.0.1:8123/a;drop')).toThrow(/database/);
    expect(() => parseLogsUrl('not a url')).toThrow(/URL/);
  });
});

describe('the ClickHouse logs store', () => {
  let database: TestDatabase;
  let events: Extract<EventStore, { kind: 'clickhouse' }>;
  beforeAll(async () => {
    if (!target?.logsUrl) throw new Error('no ClickHouse store configured');
    database = await createTestDatabase(target, { migrated: true });
    const store = await openEventStore(target.logsUrl(), database.logs);
    if (store.kind !== 'clickhouse') throw new Error('expected ClickHouse');
    events = store;
  });
  afterAll(async () => {
    await events.clickhouse.client.command({ query: `DROP DATABASE IF EXISTS ${events.clickhouse.database}` });
    await events.close();
    await database.dispose();
  });

  it('keeps hostile strings as data, in inserts and in queries', async () => {
    const hostile = "a'\\'; DROP TABLE access_logs; --\n\r\t\0<script>";
    await events.clickhouse.insert('access_logs', [line(1, NOW, { uri: hostile, user_agent: hostile })]);
    const rows = await events.db
      .selectFrom('access_logs')
      .select(['uri', 'user_agent'])
      .where('uri', '=', hostile)
      .execute();
    expect(rows).toEqual([{ uri: hostile, user_agent: hostile }]);
  });

  it('drops whole UTC days past retention, in the logs and the rollups, and keeps the rest', async () => {
    const ages = [0.2, 3, 10, 40, 95, 120];
    await events.clickhouse.insert(
      'access_logs',
      ages.map((days, index) => line(100 + index, Math.round(NOW - days * DAY_MS))),
    );
    const count = async (table: 'access_logs' | 'site_traffic_minutes' | 'site_traffic_hours' | 'site_traffic_days') =>
      Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(events.db)).rows[0]?.n);
    const before = { days: await count('site_traffic_days') };
    const outcome = await pruneTrafficData(database.logs, database.dialect, KEPT, NOW, events);
    // Raw lines kept 31 days: the 40, 95 and 120 day old ones went (their days' partitions).
    expect(outcome.access_logs).toBe(3);
    const times = await events.db.selectFrom('access_logs').select('time_ms').where('id', '>=', 100).execute();
    expect(times.map((row) => Math.round((NOW - row.time_ms) / DAY_MS))).toEqual(expect.arrayContaining([0, 3, 10]));
    expect(times).toHaveLength(3);
    // Minutes kept 7 days, hours 90; days for good.
    expect(await count('site_traffic_days')).toBe(before.days);
    // Hours go by 30-day partitions: the 120 day old hour went, the 95 day old one waits for its
    // partition to pass the cutoff as a whole.
    const hours = await events.db.selectFrom('site_traffic_hours').select('bucket').execute();
    const hourAges = hours.map((row) => Math.round((NOW / 1000 - row.bucket) / 86_400));
    expect(hourAges).not.toContain(120);
    expect(hourAges).toEqual(expect.arrayContaining([0, 3, 10, 40]));
    const minutes = await events.db
      .selectFrom('site_traffic_minutes')
      .select('bucket')
      .where('bucket', '<', NOW / 1000 - 7 * 86_400)
      .execute();
    expect(minutes).toEqual([]);
    // Nothing left to drop the second time.
    expect(await pruneTrafficData(database.logs, database.dialect, KEPT, NOW, events)).toEqual({});
  });

  it('shows its size on disk beside the SQL stores', async () => {
    const sizes = await storageBytes({ db: database.db, logs: database.logs, dialect: database.dialect, events });
    expect(sizes.clickhouse_bytes).toBeGreaterThan(0);
    expect(sizes.logs_bytes).toBeGreaterThan(0);
  });
});
