import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';

const SORTS = [
  ['users.username_key', 'users_group_account'],
  ['users.email_key', 'users_group_email'],
  ['users.created_at', 'users_group_created'],
] as const;

/**
 * A page of one group's users in the list's order, as listUsers asks for it, is read from one index
 * range in that order: no sort step over the group's users. (Without statistics both databases
 * choose by the indexes alone; PostgreSQL is told to avoid sorts and scans it can avoid.)
 */
describe.each(DIALECTS)("the admin user list's group pages on $dialect", (target) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(target, { migrated: true });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it.each(SORTS)('sorted by %s, read in order from %s', async (column, index) => {
    for (const direction of ['asc', 'desc'] as const) {
      const page = database.db
        .selectFrom('users')
        .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
        .selectAll('users')
        .select('user_groups.name as group_name')
        .where('users.group_id', '=', 3)
        .orderBy(column, direction)
        .orderBy('users.id', direction)
        .limit(20)
        .offset(980)
        .compile();
      const plan = await database.db.transaction().execute(async (trx) => {
        if (target.dialect === 'postgres') {
          for (const setting of ['enable_sort', 'enable_incremental_sort', 'enable_seqscan']) {
            await sql`select set_config(${setting}, 'off', true)`.execute(trx);
          }
        }
        const prefix = target.dialect === 'postgres' ? 'explain ' : 'explain query plan ';
        const rows = await trx.executeQuery(CompiledQuery.raw(prefix + page.sql, [...page.parameters]));
        return (rows.rows as Record<string, unknown>[])
          .map((row) => String(row['QUERY PLAN'] ?? row.detail ?? ''))
          .join('\n');
      });
      expect(plan, `${column} ${direction}`).toContain(index);
      expect(plan, `${column} ${direction}`).not.toMatch(/Sort|TEMP B-TREE FOR ORDER BY/);
    }
  });
});
