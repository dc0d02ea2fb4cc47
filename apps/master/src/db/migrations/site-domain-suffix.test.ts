import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { migrateConfigTo, migrateToLatest } from '../migrate.ts';

describe.each(DIALECTS)('the site-domain-suffix migration on $dialect', (target) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(target);
    await migrateConfigTo(database, '2026-11-25T0900-owner-keys');
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('spells every stored domain backwards, so the names under a zone are one index range', async () => {
    const db = database.db as Kysely<unknown>;
    const user = await sql<{
      id: number;
    }>`insert into users (username, username_key, password_hash, type, created_at, updated_at)
      values ('alice', 'alice', 'x', 2, 0, 0) returning id`.execute(db);
    const site = await sql<{
      id: number;
    }>`insert into sites (user_id, name, primary_domain, settings, enabled, https, version, created_at, updated_at)
      values (${user.rows[0]?.id}, 's', 'a.example.com', '{}', 1, 0, 1, 0, 0) returning id`.execute(db);
    for (const domain of ['a.example.com', '*.example.com', 'b.a.example.com']) {
      await sql`insert into site_domains (domain, site_id) values (${domain}, ${site.rows[0]?.id})`.execute(db);
    }
    expect(await migrateToLatest(database)).toContain('2026-11-25T0910-site-domain-suffix');
    const rows = await database.db
      .selectFrom('site_domains')
      .select(['domain', 'reversed'])
      .orderBy('domain')
      .execute();
    expect(rows).toEqual([
      { domain: '*.example.com', reversed: 'moc.elpmaxe.*' },
      { domain: 'a.example.com', reversed: 'moc.elpmaxe.a' },
      { domain: 'b.a.example.com', reversed: 'moc.elpmaxe.a.b' },
    ]);
    // Byte order on both databases: the range of names under example.com holds exactly those below it.
    const under = await database.db
      .selectFrom('site_domains')
      .select('domain')
      .where('reversed', '>=', 'moc.elpmaxe.')
      .where('reversed', '<', 'moc.elpmaxe/')
      .orderBy('domain')
      .execute();
    expect(under.map((row) => row.domain)).toEqual(['*.example.com', 'a.example.com', 'b.a.example.com']);
  });
});
