import { type DatabaseConnection, SqliteAdapter, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';

/**
 * Turns for the one SQLite connection, first come first served: a release hands the connection to
 * the longest waiter only.
 */
export class FifoLock {
  #held = false;
  readonly #waiters: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }
}

/** Kysely's SQLite driver, taking its single connection in turns (see `SerialSqliteDialect`). */
class SerialSqliteDriver extends SqliteDriver {
  readonly #turns = new FifoLock();

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.#turns.acquire();
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    this.#turns.release();
  }
}

/** Tells Kysely not to serialise the connection itself: the driver does. */
class SerialSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * Kysely's SQLite dialect with a fair lock on its one connection. Kysely's own lock wakes every
 * waiter at each release and lets all but one wait again: with a thousand agents' requests queued
 * on the connection (a config change answers every long poll at once), each change cost the master
 * 8 s of CPU in promise wake-ups alone (bench/fleet.ts). Here each release wakes one waiter.
 */
export class SerialSqliteDialect extends SqliteDialect {
  readonly #settings: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#settings = config;
  }

  override createDriver(): SerialSqliteDriver {
    return new SerialSqliteDriver(this.#settings);
  }

  override createAdapter(): SerialSqliteAdapter {
    return new SerialSqliteAdapter();
  }
}
