import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { migrateConfigTo, migrateToLatest } from '../migrate.ts';

const BEFORE = '2026-11-23T1300-account-logs';
const NOBODY = 71;

/** Rows as the older schema held them: system rows (user 0), alice's, and rows of a user that never existed. */
async function fill(db: Kysely<unknown>) {
  const now = 1_700_000_000_000;
  const insert = async (table: string, row: Record<string, unknown>) =>
    (
      await sql<{
        id: number;
      }>`insert into ${sql.table(table)} (${sql.join(Object.keys(row).map((key) => sql.ref(key)))})
        values (${sql.join(Object.values(row))}) returning id`.execute(db)
    ).rows[0]?.id as number;
  const alice = await insert('users', {
    username: 'alice',
    username_key: 'alice',
    password_hash: 'x',
    type: 2,
    created_at: now,
    updated_at: now,
  });
  const match = (user_id: number, name: string) =>
    insert('cc_matches', { user_id, name, conditions: '[]', created_at: now, updated_at: now });
  const filter = (user_id: number, name: string) =>
    insert('cc_filters', { user_id, name, type: 'js', settings: '{}', created_at: now, updated_at: now });
  const group = (user_id: number, name: string) =>
    insert('cc_rule_groups', { user_id, name, is_default: 0, created_at: now, updated_at: now });
  const line = (group_id: number, match_id: number, filter_id: number) =>
    sql`insert into cc_rule_lines (group_id, position, match_id, filter_id, action, ban_seconds)
      values (${group_id}, 0, ${match_id}, ${filter_id}, 'block', 0)`.execute(db);
  const ids = {
    alice,
    systemMatch: await match(0, 'system'),
    aliceMatch: await match(alice, 'alice'),
    orphanMatch: await match(NOBODY, 'orphan'),
    systemFilter: await filter(0, 'system'),
    orphanFilter: await filter(NOBODY, 'orphan'),
    systemGroup: await group(0, 'system'),
    aliceGroup: await group(alice, 'alice'),
    orphanGroup: await group(NOBODY, 'orphan'),
    site: await insert('sites', {
      user_id: alice,
      name: 's',
      primary_domain: 's.example.com',
      settings: '{}',
      enabled: 1,
      https: 0,
      version: 1,
      created_at: now,
      updated_at: now,
    }),
  };
  await line(ids.aliceGroup, ids.aliceMatch, ids.systemFilter);
  await line(ids.orphanGroup, ids.orphanMatch, ids.orphanFilter);
  await insert('acls', { site_id: ids.site, user_id: NOBODY, entries: '[]', created_at: now, updated_at: now });
  return ids;
}

const rows = async (db: Kysely<unknown>, table: string) =>
  (
    await sql<{ id: number; user_id: number | null }>`select id, user_id from ${sql.table(table)} order by id`.execute(
      db,
    )
  ).rows;

describe.each(DIALECTS)('the owner-keys migration on $dialect', (target) => {
  let database: TestDatabase;
  let db: Kysely<unknown>;
  beforeEach(async () => {
    database = await createTestDatabase(target);
    db = database.db as Kysely<unknown>;
    await migrateConfigTo(database, BEFORE);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('deletes rows of users that never existed, keeps the rest, and system rows lose user 0 for NULL', async () => {
    const ids = await fill(db);
    expect(await migrateToLatest(database)).toContain('2026-11-25T0900-owner-keys');
    expect(await rows(db, 'cc_matches')).toEqual([
      { id: ids.systemMatch, user_id: null },
      { id: ids.aliceMatch, user_id: ids.alice },
    ]);
    expect(await rows(db, 'cc_filters')).toEqual([{ id: ids.systemFilter, user_id: null }]);
    expect(await rows(db, 'cc_rule_groups')).toEqual([
      { id: ids.systemGroup, user_id: null },
      { id: ids.aliceGroup, user_id: ids.alice },
    ]);
    const lines = await sql<{ group_id: number }>`select group_id from cc_rule_lines`.execute(db);
    expect(lines.rows.map((row) => Number(row.group_id))).toEqual([ids.aliceGroup]);
    expect(await rows(db, 'acls')).toEqual([]);
  });

  it('leaves keys that refuse a row of nobody and take a user’s rows with the user', async () => {
    const ids = await fill(db);
    await migrateToLatest(database);
    for (const table of ['cc_matches', 'cc_filters', 'cc_rule_groups']) {
      const columns = table === 'cc_matches' ? 'conditions' : table === 'cc_filters' ? 'type, settings' : 'is_default';
      const values = table === 'cc_matches' ? sql`'[]'` : table === 'cc_filters' ? sql`'js', '{}'` : sql`0`;
      await expect(
        sql`insert into ${sql.table(table)} (user_id, name, ${sql.raw(columns)}, created_at, updated_at)
          values (${NOBODY}, 'x', ${values}, 0, 0)`.execute(db),
        table,
      ).rejects.toThrow(/foreign key/i);
    }
    await expect(
      sql`insert into acls (site_id, user_id, entries, created_at, updated_at) values (${ids.site}, ${NOBODY}, '[]', 0, 0)`.execute(
        db,
      ),
    ).rejects.toThrow(/foreign key/i);
    await sql`delete from users where id = ${ids.alice}`.execute(db);
    expect(await rows(db, 'cc_matches')).toEqual([{ id: ids.systemMatch, user_id: null }]);
    expect(await rows(db, 'cc_rule_groups')).toEqual([{ id: ids.systemGroup, user_id: null }]);
    if (target.dialect === 'sqlite') {
      const pragma = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
      expect(pragma.rows[0]?.foreign_keys).toBe(1);
      const indexes = await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'index' and name like '%_user'`.execute(db);
      expect(indexes.rows.map((row) => row.name).sort()).toEqual(
        expect.arrayContaining(['acls_user', 'cc_filters_user', 'cc_matches_user', 'cc_rule_groups_user']),
      );
    }
  });

  it('runs on an empty database', async () => {
    expect(await migrateToLatest(database)).toContain('2026-11-25T0900-owner-keys');
  });
});
