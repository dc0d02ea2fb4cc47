import { CompiledQuery, type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate.ts';
import { logs } from '../../db/migrations/logs/2026-11-21T1000-logs.ts';
import { blockLog } from '../../db/migrations/logs/2026-11-22T1100-block-log.ts';
import { siteTraffic } from '../../db/migrations/logs/2026-11-25T1000-site-traffic.ts';
import { ensureDayPartitions } from '../../db/partitions.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { matchingStreamLog, type StreamLogFilter } from './stream-log.repository.ts';

const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);

/** Stream lines and node reports stored before their rollups existed are rolled up by the migration. */
describe.each(DIALECTS)('stream traffic migration on $dialect', (target) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(target);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('rolls up the stream lines and node reports already stored and keys the addresses', async () => {
    const before = new Migrator({
      db: database.logs as Kysely<unknown>,
      provider: {
        getMigrations: async () => ({
          '2026-11-21T1000-logs': logs(database.dialect),
          '2026-11-22T1100-block-log': blockLog(),
          '2026-11-25T1000-site-traffic': siteTraffic(),
        }),
      },
      migrationTableName: 'kysely_migration_logs',
      migrationLockTableName: 'kysely_migration_logs_lock',
    });
    expect((await before.migrateToLatest()).error).toBeUndefined();
    const times = [T0, T0 + 1000, T0 + 61_000, T0 + 3_600_000];
    await ensureDayPartitions(database.logs, database.dialect, 'stream_logs', 'ms', times);
    for (const [index, time] of times.entries()) {
      await sql`insert into stream_logs (node_id, stream_id, time_ms, client_ip, protocol, status, bytes_sent,
          bytes_received, session_time_ms, upstream)
        values (1, 9, ${time}, ${index === 3 ? '-' : '192.0.2.1'}, 'TCP', ${index === 2 ? 502 : 200}, 100, 10, 500, 'u')`.execute(
        database.logs,
      );
    }
    await ensureDayPartitions(database.logs, database.dialect, 'node_metrics', 's', [T0 / 1000]);
    for (const [offset, cpu] of [
      [0, 10],
      [10, 30],
    ]) {
      await sql`insert into node_metrics (node_id, time, cpu_percent, memory_used_bytes, memory_total_bytes, load1,
          connections, bytes_in, bytes_out) values (3, ${T0 / 1000 + (offset ?? 0)}, ${cpu}, 100, 400, 0.5, 2, 5, 50)`.execute(
        database.logs,
      );
    }

    expect(await migrateToLatest(database)).toContain('2026-11-25T1110-stream-traffic');
    for (const streamId of [9, 0]) {
      const minutes = await database.logs
        .selectFrom('stream_traffic_minutes')
        .selectAll()
        .where('stream_id', '=', streamId)
        .orderBy('bucket')
        .execute();
      expect(minutes.map((row) => [Number(row.bucket) * 1000, Number(row.connections), Number(row.failed)])).toEqual([
        [T0, 2, 0],
        [T0 + 60_000, 1, 1],
        [T0 + 3_600_000, 1, 0],
      ]);
    }
    const days = await database.logs.selectFrom('stream_traffic_days').selectAll().orderBy('stream_id').execute();
    expect(
      days.map((day) => [day.stream_id, day.connections, day.bytes_in, day.bytes_out, day.session_ms].map(Number)),
    ).toEqual([
      [0, 4, 40, 400, 2000],
      [9, 4, 40, 400, 2000],
    ]);
    const keys = await database.logs.selectFrom('stream_logs').select('client_ip_key').orderBy('time_ms').execute();
    expect(keys.map((row) => row.client_ip_key)).toEqual([
      '00000000000000000000ffffc0000201',
      '00000000000000000000ffffc0000201',
      '00000000000000000000ffffc0000201',
      null,
    ]);
    const [node] = await database.logs.selectFrom('node_metric_hours').selectAll().execute();
    expect(
      node && [node.reports, node.extended_reports, node.cpu_sum, node.bytes_out, node.connections_sum].map(Number),
    ).toEqual([2, 0, 40, 100, 4]);
  });
});

const FILTER: StreamLogFilter = {
  fromMs: 1_700_000_000_000,
  toMs: 1_700_003_600_000,
  ipKeys: { first: '0'.repeat(32), last: 'f'.repeat(32) },
  protocol: 'tcp',
  status: { first: 500, last: 599 },
  nodeId: 1,
};

/** No filter a user can send makes the stream log walk the whole table: each starts from a time index. */
describe('stream log query plans on sqlite', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase({ dialect: 'sqlite' });
    await migrateToLatest(database);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('reads a user’s streams and every stream through a time-bounded index', async () => {
    const plan = async (query: { compile: () => { sql: string; parameters: readonly unknown[] } }) => {
      const compiled = query.compile();
      const result = await database.logs.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      return result.rows.map((row) => row.detail).join('\n');
    };
    for (const filter of [FILTER, { fromMs: FILTER.fromMs, toMs: FILTER.toMs }]) {
      const page = (scope: Parameters<typeof matchingStreamLog>[1]) =>
        matchingStreamLog(database.logs, scope, filter).selectAll().orderBy('time_ms', 'desc').limit(50);
      const own = await plan(page({ kind: 'streams', ids: [1, 2, 3] }));
      // With a node filter the planner may start from (node_id, time_ms): a time range either way.
      expect(own).toMatch(
        /USING INDEX stream_logs_(stream|node)_time \((stream|node)_id=\? AND time_ms>\? AND time_ms<\?\)/,
      );
      expect(own).not.toMatch(/^SCAN stream_logs$/m);
      const all = await plan(page({ kind: 'all' }));
      expect(all).toMatch(/USING INDEX stream_logs_(node_)?time \((node_id=\? AND )?time_ms>\? AND time_ms<\?\)/);
      expect(all).not.toMatch(/^SCAN stream_logs$/m);
    }
  });
});
