import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { migrateConfigTo, migrateToLatest } from '../migrate.ts';

describe.each(DIALECTS)('the site-counts migration on $dialect', (target) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(target);
    await migrateConfigTo(database, '2026-11-28T0400-node-clock');
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('counts the sites each user already has, then keeps the count as sites come and go', async () => {
    const db = database.db as Kysely<unknown>;
    const addUser = async (name: string) =>
      Number(
        (
          await sql<{
            id: number;
          }>`insert into users (username, username_key, password_hash, type, created_at, updated_at)
            values (${name}, ${name}, 'x', 2, 0, 0) returning id`.execute(db)
        ).rows[0]?.id,
      );
    const addSite = (userId: number, domain: string) =>
      sql`insert into sites (user_id, name, primary_domain, settings, enabled, https, version, created_at, updated_at)
        values (${userId}, ${domain}, ${domain}, '{}', 1, 0, 1, 0, 0)`.execute(db);
    const alice = await addUser('alice');
    const bob = await addUser('bob');
    await addUser('carol');
    for (const domain of ['a.test', 'b.test', 'c.test']) await addSite(alice, domain);
    await addSite(bob, 'd.test');

    expect(await migrateToLatest(database)).toContain('2026-11-28T0900-site-counts');
    const counts = async () =>
      (await database.db.selectFrom('site_counts').select(['user_id', 'sites']).orderBy('user_id').execute()).map(
        (row) => [Number(row.user_id), Number(row.sites)],
      );
    // A user with no sites has no row (the list reads a missing row as 0).
    expect(await counts()).toEqual([
      [alice, 3],
      [bob, 1],
    ]);
    await addSite(bob, 'e.test');
    await sql`delete from sites where primary_domain = 'a.test'`.execute(db);
    expect(await counts()).toEqual([
      [alice, 2],
      [bob, 2],
    ]);
  });
});
