import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../test/databases.ts';
import { prepared } from './prepared.ts';
import type { Database } from './schema.ts';

describe.each(DIALECTS)('prepared queries on $dialect', (target) => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  beforeAll(async () => {
    database = await createTestDatabase(target, { migrated: true });
    db = database.db;
    const node = (name: string, hash: string) => ({
      name,
      ips: '[]',
      group_id: null,
      region_id: null,
      enabled: 1,
      http_port: 80,
      https_port: 443,
      max_cache_size_mb: 1024,
      credential_hash: hash,
      applied_version: 0,
      last_seen_at: null,
      last_error: '',
      dropped_log_lines: 0,
      agent_version: '',
      created_at: 1,
      updated_at: 1,
      clock_offset_seconds: null,
      clock_skew_noticed_at: null,
    });
    await db
      .insertInto('nodes')
      .values([node('prepared-a', 'hash-a'), node('prepared-b', 'hash-b')])
      .execute();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('compiles once per database and answers each call with its own values, in a transaction too', async () => {
    let builds = 0;
    const byHash = prepared(
      (on: Kysely<Database>, hash: string, enabled: number) => {
        builds += 1;
        return on
          .selectFrom('nodes')
          .select(['name', 'http_port'])
          .where('credential_hash', '=', hash)
          .where('enabled', '=', enabled);
      },
      (hash, enabled) => [hash, enabled],
    );
    expect(await byHash(db, 'hash-a', 1)).toEqual([{ name: 'prepared-a', http_port: 80 }]);
    expect(await byHash(db, 'hash-b', 1)).toEqual([{ name: 'prepared-b', http_port: 80 }]);
    expect(await byHash(db, 'hash-b', 0)).toEqual([]);
    await db.transaction().execute(async (trx) => {
      expect(await byHash(trx, 'hash-a', 1)).toEqual([{ name: 'prepared-a', http_port: 80 }]);
    });
    expect(builds).toBe(1);
  });

  it('writes and returns as the built query does', async () => {
    const setPort = prepared(
      (on: Kysely<Database>, port: number, name: string) =>
        on.updateTable('nodes').set({ http_port: port }).where('name', '=', name).returning(['name', 'http_port']),
      (port, name) => [port, name],
    );
    expect(await setPort(db, 8080, 'prepared-b')).toEqual([{ name: 'prepared-b', http_port: 8080 }]);
    expect(await setPort(db, 8081, 'prepared-b')).toEqual([{ name: 'prepared-b', http_port: 8081 }]);
    const stored = await db.selectFrom('nodes').select('http_port').where('name', '=', 'prepared-a').executeTakeFirst();
    expect(stored?.http_port).toBe(80);
  });

  it('refuses parameters listed in another order than the compiled query binds them, running nothing', async () => {
    const swapped = prepared(
      (on: Kysely<Database>, port: number, name: string) =>
        on.updateTable('nodes').set({ http_port: port }).where('name', '=', name),
      (port, name) => [name, port],
    );
    await expect(swapped(db, 9090, 'prepared-a')).rejects.toThrow(/prepared query: parameters \["prepared-a",9090\]/);
    const stored = await db.selectFrom('nodes').select('http_port').where('name', '=', 'prepared-a').executeTakeFirst();
    expect(stored?.http_port).toBe(80);
  });
});
