import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { FifoLock, SerialSqliteDialect } from './sqlite-dialect.ts';

describe('FifoLock', () => {
  it('hands the lock to one waiter at a time, in the order they asked', async () => {
    const lock = new FifoLock();
    const order: number[] = [];
    await lock.acquire();
    const waiting = [1, 2, 3].map((n) => lock.acquire().then(() => order.push(n)));
    await Promise.resolve();
    expect(order).toEqual([]);
    lock.release();
    await waiting[0];
    expect(order).toEqual([1]);
    lock.release();
    lock.release();
    await Promise.all(waiting);
    expect(order).toEqual([1, 2, 3]);
    // Free again: the next caller gets it at once, and a second one waits.
    lock.release();
    await lock.acquire();
    let second = false;
    const next = lock.acquire().then(() => {
      second = true;
    });
    await Promise.resolve();
    expect(second).toBe(false);
    lock.release();
    await next;
    expect(second).toBe(true);
  });
});

describe('SerialSqliteDialect', () => {
  let dir: string | undefined;
  let db: Kysely<{ counter: { n: number } }> | undefined;
  afterEach(async () => {
    await db?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gives a transaction the connection alone while hundreds of queries and transactions queue', async () => {
    dir = mkdtempSync(join(tmpdir(), 'rampart-sqlite-dialect-'));
    db = new Kysely({ dialect: new SerialSqliteDialect({ database: new SqliteDatabase(join(dir, 'test.db')) }) });
    await sql`create table counter (n integer not null)`.execute(db);
    await db.insertInto('counter').values({ n: 0 }).execute();
    const database = db;
    // Each transaction reads, yields to the event loop, then writes what it read plus one: any
    // interleaving would lose increments.
    const increments = Array.from({ length: 300 }, () =>
      database.transaction().execute(async (trx) => {
        const { n } = await trx.selectFrom('counter').select('n').executeTakeFirstOrThrow();
        await new Promise((resolve) => setImmediate(resolve));
        await trx
          .updateTable('counter')
          .set({ n: n + 1 })
          .execute();
      }),
    );
    const reads = Array.from({ length: 300 }, () =>
      database.selectFrom('counter').select('n').executeTakeFirstOrThrow(),
    );
    await Promise.all([...increments, ...reads]);
    expect(await db.selectFrom('counter').select('n').executeTakeFirstOrThrow()).toEqual({ n: 300 });
    // A failed transaction rolls back and hands the connection on.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('counter').set({ n: -1 }).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await db.selectFrom('counter').select('n').executeTakeFirstOrThrow()).toEqual({ n: 300 });
  });
});
