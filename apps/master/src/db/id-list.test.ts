import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inIds } from './id-list.ts';

describe('inIds', () => {
  it('takes more ids than a statement takes parameters', async () => {
    const db = new Kysely<{ t: { id: number } }>({
      dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }),
    });
    await db.schema.createTable('t').addColumn('id', 'integer').execute();
    await db
      .insertInto('t')
      .values([{ id: 3 }, { id: 70_000 }, { id: 70_001 }])
      .execute();
    const odd = Array.from({ length: 100_000 }, (_, i) => 2 * i + 1);
    const rows = await db.selectFrom('t').select('id').where(inIds('id', odd)).orderBy('id').execute();
    expect(rows.map((row) => row.id)).toEqual([3, 70_001]);
    await db.destroy();
  });

  it('refuses anything but safe integers, and an empty list', () => {
    expect(() => inIds('id', [1, 1.5])).toThrow(/1.5 is not an id/);
    expect(() => inIds('id', [Number.NaN])).toThrow(/not an id/);
    expect(() => inIds('id', [2 ** 53])).toThrow(/not an id/);
    expect(() => inIds('id', [])).toThrow(/empty/);
  });
});
