import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { createTestDatabase, DIALECTS, otherMasterHandle, type TestDatabase } from '../../test/databases.ts';
import { claimLease, runUnderLease } from './leases.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('work under a lease on $dialect', (target) => {
  let database: TestDatabase;
  // Another master's handle: on PostgreSQL a pool of its own on the same schema; SQLite serves one master.
  let other: { db: Kysely<Database>; close(): Promise<void> };
  beforeEach(async () => {
    database = await createTestDatabase(target, { migrated: true });
    other = await otherMasterHandle(database, target);
  });
  afterEach(async () => {
    await other.close();
    await database.dispose();
  });

  const lease = (db: Kysely<Database>) =>
    db.selectFrom('health_leases').selectAll().where('name', '=', 'duty').executeTakeFirstOrThrow();

  it('runs one holder’s work at a time across masters, each while it holds the lease', async () => {
    let active = 0;
    let most = 0;
    const holders: string[] = [];
    const work = (db: Kysely<Database>, holder: string) => async () => {
      active++;
      most = Math.max(most, active);
      for (let step = 0; step < 3; step++) {
        expect((await lease(db)).holder).toBe(holder);
        await sleep(5);
      }
      holders.push(holder);
      active--;
    };
    await Promise.all(
      ['a1', 'b1', 'a2', 'b2', 'a3', 'b3'].map((holder) => {
        const db = holder.startsWith('a') ? database.db : other.db;
        return runUnderLease(db, 'duty', work(db, holder), { holder, ttlMs: 5000, pollMs: 5 });
      }),
    );
    expect(most).toBe(1);
    expect(holders.sort()).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    expect(Number((await lease(database.db)).expires_at)).toBe(0);
  });

  it('takes over the lease of a holder that died once it runs out', async () => {
    const ttlMs = 300;
    expect(await claimLease(database.db, 'duty', 'died', Date.now(), ttlMs)).toBe(true);
    const deadUntil = Number((await lease(database.db)).expires_at);
    const seen = await runUnderLease(other.db, 'duty', async () => ({ row: await lease(other.db), at: Date.now() }), {
      holder: 'alive',
      ttlMs,
      pollMs: 10,
    });
    expect(seen.row.holder).toBe('alive');
    expect(seen.at).toBeGreaterThan(deadUntil);
    expect(await lease(database.db)).toMatchObject({ holder: 'alive', expires_at: 0 });
  });

  it('tells the work when another master took the lease over, and then leaves that master’s lease alone', async () => {
    const reason = await runUnderLease(
      database.db,
      'duty',
      async (lost) => {
        await other.db
          .updateTable('health_leases')
          .set({ holder: 'thief', expires_at: Date.now() + 60_000 })
          .where('name', '=', 'duty')
          .execute();
        await new Promise((resolve) => lost.addEventListener('abort', resolve));
        return (lost.reason as Error).message;
      },
      { holder: 'slow', ttlMs: 300 },
    );
    expect(reason).toBe('the lease duty was taken over by another master');
    expect((await lease(database.db)).holder).toBe('thief');
    expect(Number((await lease(database.db)).expires_at)).toBeGreaterThan(Date.now());
  });
});
