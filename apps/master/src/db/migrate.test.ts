import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS } from '../test/databases.ts';
import { migrateToLatest } from './migrate.ts';

const postgres = DIALECTS.find((target) => target.dialect === 'postgres');

describe.runIf(postgres)('migrations on a PostgreSQL database other masters share', () => {
  it('complete while other sessions create and drop schemas (the migrator reads only its own)', async () => {
    const url = postgres!.url!;
    const churn = new pg.Client({ connectionString: url });
    await churn.connect();
    let stop = false;
    const churning = (async () => {
      for (let i = 0; !stop; i++) {
        const name = `rampart_test_${Math.floor(Date.now() / 1000)}_churn${i}`;
        await churn.query(`create schema ${name}`);
        await churn.query(`create table ${name}.t (a int, b text)`);
        await churn.query(`drop schema ${name} cascade`);
      }
    })();
    try {
      for (let round = 0; round < 4; round++) {
        const database = await createTestDatabase(postgres!);
        try {
          expect(await migrateToLatest(database)).toContain('2026-11-21T0900-accounts');
        } finally {
          await database.dispose();
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
  }, 90_000); // Four full migrations on a shared, loaded machine: each new migration adds to it.
});
