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
    await db
      .insertInto('node_groups')
      .values([
        { name: 'prepared-a', created_at: 10 },
        { name: 'prepared-b', created_at: 10 },
      ])
      .execute();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('compiles once per database and answers each call with its own values, in a transaction too', async () => {
    let builds = 0;
    const byName = prepared(
      (on: Kysely<Database>, name: string, createdAt: number) => {
        builds += 1;
        return on
          .selectFrom('node_groups')
          .select(['name', 'created_at'])
          .where('name', '=', name)
          .where('created_at', '=', createdAt);
      },
      (name, createdAt) => [name, createdAt],
    );
    expect(await byName(db, 'prepared-a', 10)).toEqual([{ name: 'prepared-a', created_at: 10 }]);
    expect(await byName(db, 'prepared-b', 10)).toEqual([{ name: 'prepared-b', created_at: 10 }]);
    expect(await byName(db, 'prepared-b', 11)).toEqual([]);
    await db.transaction().execute(async (trx) => {
      expect(await byName(trx, 'prepared-a', 10)).toEqual([{ name: 'prepared-a', created_at: 10 }]);
    });
    expect(builds).toBe(1);
  });

  it('writes and returns as the built query does', async () => {
    const setCreated = prepared(
      (on: Kysely<Database>, createdAt: number, name: string) =>
        on
          .updateTable('node_groups')
          .set({ created_at: createdAt })
          .where('name', '=', name)
          .returning(['name', 'created_at']),
      (createdAt, name) => [createdAt, name],
    );
    expect(await setCreated(db, 20, 'prepared-b')).toEqual([{ name: 'prepared-b', created_at: 20 }]);
    expect(await setCreated(db, 21, 'prepared-b')).toEqual([{ name: 'prepared-b', created_at: 21 }]);
    const stored = await db
      .selectFrom('node_groups')
      .select('created_at')
      .where('name', '=', 'prepared-a')
      .executeTakeFirst();
    expect(stored?.created_at).toBe(10);
  });

  it('refuses parameters listed in another order than the compiled query binds them, running nothing', async () => {
    const swapped = prepared(
      (on: Kysely<Database>, createdAt: number, name: string) =>
        on.updateTable('node_groups').set({ created_at: createdAt }).where('name', '=', name),
      (createdAt, name) => [name, createdAt],
    );
    await expect(swapped(db, 90, 'prepared-a')).rejects.toThrow(/prepared query: parameters \["prepared-a",90\]/);
    const stored = await db
      .selectFrom('node_groups')
      .select('created_at')
      .where('name', '=', 'prepared-a')
      .executeTakeFirst();
    expect(stored?.created_at).toBe(10);
  });
});
