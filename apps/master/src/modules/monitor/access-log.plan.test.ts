import { CompiledQuery } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../../test/databases.ts';
import { type AccessLogFilter, matching } from './access-log.repository.ts';
import type { SiteScope } from './site-scope.repository.ts';

const FILTER: AccessLogFilter = {
  fromMs: 1_700_000_000_000,
  toMs: 1_700_003_600_000,
  ipKeys: { first: '0'.repeat(32), last: 'f'.repeat(32) },
  url: { text: 'login', match: 'contains' },
  status: { first: 400, last: 499 },
  method: 'GET',
};

/** No filter a user can send makes the access log walk the whole table: each starts from a time index. */
describe('access log query plans on sqlite', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase({ dialect: 'sqlite' });
    await migrateToLatest(database);
  });
  afterEach(async () => {
    await database.dispose();
  });

  const plan = async (scope: SiteScope, filter: AccessLogFilter) => {
    const compiled = matching(database.logs, scope, filter)
      .selectAll()
      .orderBy('time_ms', 'desc')
      .orderBy('id', 'desc')
      .limit(50)
      .compile();
    const result = await database.logs.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    return result.rows.map((row) => row.detail).join('\n');
  };

  it('reads a user’s sites through (site_id, time_ms) and every site through (time_ms)', async () => {
    for (const filter of [FILTER, { fromMs: FILTER.fromMs, toMs: FILTER.toMs }]) {
      const own = await plan({ kind: 'sites', ids: [1, 2, 3] }, filter);
      expect(own).toMatch(/USING INDEX access_logs_site_time \(site_id=\? AND time_ms>\? AND time_ms<\?\)/);
      expect(own).not.toMatch(/^SCAN access_logs$/m);
      const all = await plan({ kind: 'all' }, filter);
      expect(all).toMatch(/USING INDEX access_logs_time \(time_ms>\? AND time_ms<\?\)/);
      expect(all).not.toMatch(/^SCAN access_logs$/m);
    }
  });
});
