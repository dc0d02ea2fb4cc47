import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate.ts';
import { logs } from '../../db/migrations/logs/2026-11-21T1000-logs.ts';
import { blockLog } from '../../db/migrations/logs/2026-11-22T1100-block-log.ts';
import { ensureDayPartitions } from '../../db/partitions.ts';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';

const T0 = Date.UTC(2026, 10, 20, 10, 0, 0);

/** The lines stored before the rollups existed are rolled up, and their addresses keyed, by the migration. */
describe.each(DIALECTS)('site traffic migration on $dialect', (target) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(target);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('rolls up the lines already stored and keys their addresses', async () => {
    const before = new Migrator({
      db: database.logs as Kysely<unknown>,
      provider: {
        getMigrations: async () => ({
          '2026-11-21T1000-logs': logs(database.dialect),
          '2026-11-22T1100-block-log': blockLog(),
        }),
      },
      migrationTableName: 'kysely_migration_logs',
      migrationLockTableName: 'kysely_migration_logs_lock',
    });
    expect((await before.migrateToLatest()).error).toBeUndefined();
    const times = [T0, T0 + 1000, T0 + 61_000, T0 + 3_600_000];
    await ensureDayPartitions(database.logs, database.dialect, 'access_logs', 'ms', times);
    for (const [index, time] of times.entries()) {
      await sql`insert into access_logs (node_id, site_id, time_ms, client_ip, method, host, uri, status, bytes_sent,
          bytes_received, request_time_ms, upstream_time_ms, cache_status, user_agent, referer, block_reason)
        values (1, 7, ${time}, ${index === 3 ? 'not an ip' : '192.0.2.1'}, 'GET', 'h', '/', ${index === 2 ? 503 : 200},
          100, 10, 1, null, ${index === 0 ? 'HIT' : 'MISS'}, 'ua', '', ${index === 1 ? 'kind=acl' : ''})`.execute(
        database.logs,
      );
    }

    expect(await migrateToLatest(database)).toContain('2026-11-25T1000-site-traffic');
    const minutes = await database.logs.selectFrom('site_traffic_minutes').selectAll().orderBy('bucket').execute();
    expect(minutes.map((row) => [Number(row.bucket) * 1000, Number(row.requests), Number(row.blocked)])).toEqual([
      [T0, 2, 1],
      [T0 + 60_000, 1, 0],
      [T0 + 3_600_000, 1, 0],
    ]);
    const [day] = await database.logs.selectFrom('site_traffic_days').selectAll().execute();
    expect(day && [day.requests, day.bytes_out, day.status_2xx, day.status_5xx, day.cache_hits].map(Number)).toEqual([
      4, 400, 3, 1, 1,
    ]);
    const keys = await database.logs.selectFrom('access_logs').select('client_ip_key').orderBy('time_ms').execute();
    expect(keys.map((row) => row.client_ip_key)).toEqual([
      '00000000000000000000ffffc0000201',
      '00000000000000000000ffffc0000201',
      '00000000000000000000ffffc0000201',
      null,
    ]);
  });
});
