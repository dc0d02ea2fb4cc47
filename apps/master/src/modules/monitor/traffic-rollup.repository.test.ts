import type { AccessLogLine } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SiteTrafficTable } from '../../db/logs-schema.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { addTrafficRollups, rollUp, sumMinutes } from './traffic-rollup.repository.ts';

const line = (site_id: number, time: number, overrides: Partial<AccessLogLine> = {}): AccessLogLine => ({
  time,
  site_id,
  client_ip: '192.0.2.1',
  method: 'GET',
  host: 'a.test',
  uri: '/',
  status: 200,
  bytes_sent: 100,
  bytes_received: 10,
  request_time: 0,
  upstream_time: null,
  cache_status: '',
  user_agent: '',
  referer: '',
  block_reason: '',
  ...overrides,
});

/** The sums line by line, straight from each line's own bucket: what the rollups must hold. */
function expected(lines: AccessLogLine[], seconds: number): SiteTrafficTable[] {
  const rows = new Map<string, SiteTrafficTable>();
  for (const l of lines.filter((l) => l.site_id > 0)) {
    const bucket = Math.floor(Math.round(l.time * 1000) / (seconds * 1000)) * seconds;
    const key = `${l.site_id}:${bucket}`;
    const row = rows.get(key) ?? {
      site_id: l.site_id,
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
    row.requests++;
    row.bytes_in += l.bytes_received;
    row.bytes_out += l.bytes_sent;
    const status = Math.floor(l.status / 100);
    if (status >= 2 && status <= 5) row[`status_${status}xx` as 'status_2xx']++;
    if (l.cache_status === 'HIT') row.cache_hits++;
    if (l.block_reason !== '') row.blocked++;
    rows.set(key, row);
  }
  return [...rows.values()].sort((a, b) => a.site_id - b.site_id || a.bucket - b.bucket);
}

describe('traffic rollups', () => {
  // Two sites and the node (site 0), over minute, hour and day edges, in no particular order.
  const day = 1_700_006_400; // a UTC midnight
  const lines = [
    line(2, day - 0.0004, { status: 404 }),
    line(1, day + 59.9996, { cache_status: 'HIT' }),
    line(1, day + 60),
    line(0, day + 61),
    line(2, day + 3599.5, { status: 503, block_reason: 'acl' }),
    line(1, day + 3600.25, { status: 301, bytes_sent: 7 }),
    line(1, day - 86_400 + 5),
    line(2, day + 299.9994, { status: 500 }),
    line(1, day + 120, { bytes_received: 3 }),
  ];

  it('sums a batch by site and minute, in (site, minute) order, as each line counted on its own', () => {
    expect(sumMinutes(lines)).toEqual(expected(lines, 60));
  });

  it('rolls the minutes up into 5 minutes, hours and days, as if summed from the lines', () => {
    for (const seconds of [300, 3600, 86_400])
      expect(rollUp(sumMinutes(lines), seconds)).toEqual(expected(lines, seconds));
  });

  it('refuses an interval that is not a whole number of minutes', () => {
    expect(() => rollUp([], 90)).toThrow();
  });
});

describe.each(DIALECTS)('adding traffic rollups on $dialect', (target) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(target, { migrated: true });
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('adds every row of a batch, however many statements it takes, to what the rollups hold', async () => {
    const day = 1_700_006_400;
    // 127 sites over two minutes: statements of 100, 20, 5 and 1 rows.
    const lines = Array.from({ length: 254 }, (_, i) =>
      line(1 + (i % 127), day + (i < 127 ? 1 : 61), { status: 200 + i }),
    );
    const minutes = sumMinutes(lines);
    await database.logs.transaction().execute((trx) => addTrafficRollups(trx, minutes));
    await database.logs.transaction().execute((trx) => addTrafficRollups(trx, minutes));
    const twice = (rows: SiteTrafficTable[]) =>
      rows.map(({ site_id, bucket, ...counts }) => ({
        site_id,
        bucket,
        ...Object.fromEntries(Object.entries(counts).map(([column, count]) => [column, 2 * count])),
      }));
    const stored = (table: 'site_traffic_minutes' | 'site_traffic_hours') =>
      database.logs.selectFrom(table).selectAll().orderBy('site_id').orderBy('bucket').execute();
    expect(await stored('site_traffic_minutes')).toEqual(twice(expected(lines, 60)));
    expect(await stored('site_traffic_hours')).toEqual(twice(expected(lines, 3600)));
    const totals = await database.logs
      .selectFrom('site_totals_minutes')
      .select(['bucket', 'requests'])
      .orderBy('bucket')
      .execute();
    expect(totals).toEqual([
      { bucket: day, requests: 254 },
      { bucket: day + 60, requests: 254 },
    ]);
  });
});
