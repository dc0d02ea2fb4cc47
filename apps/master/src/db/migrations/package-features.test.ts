import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../test/databases.ts';
import { migrateConfigTo, migrateToLatest } from '../migrate.ts';

describe.each(DIALECTS)('the package-features migration on $dialect', (target) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(target);
    await migrateConfigTo(database, '2026-11-28T0900-site-counts');
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('allows every feature on the packages it finds, whatever their old https and waf flags said', async () => {
    const db = database.db as Kysely<unknown>;
    const addPackage = (name: string, https: number, waf: number) =>
      sql`insert into packages (name, https, waf, created_at, updated_at) values (${name}, ${https}, ${waf}, 0, 0)`.execute(
        db,
      );
    await addPackage('defaults', 0, 0);
    await addPackage('both', 1, 1);

    expect(await migrateToLatest(database)).toContain('2026-11-28T1400-package-features');
    const rows = await database.db
      .selectFrom('packages')
      .select(['name', 'https', 'waf', 'forbidden_features'])
      .orderBy('name')
      .execute();
    expect(rows.map((row) => ({ ...row, https: Number(row.https), waf: Number(row.waf) }))).toEqual([
      { name: 'both', https: 1, waf: 1, forbidden_features: '[]' },
      { name: 'defaults', https: 1, waf: 1, forbidden_features: '[]' },
    ]);
  });
});
