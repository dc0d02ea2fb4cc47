import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import pg from 'pg';
import type { LogDatabase } from './logs-schema.ts';
import { SchemaScopedPostgresDialect } from './postgres-dialect.ts';
import type { Database } from './schema.ts';
import { SerialSqliteDialect } from './sqlite-dialect.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  /** Logs and metrics: a second SQLite file, so the config database stays small; PostgreSQL: same database. */
  logs: Kysely<LogDatabase>;
  dialect: Dialect;
  /** PostgreSQL: connections of their own for LISTEN (the masters of one schema share a channel). */
  notifications?: NotificationSource;
  close(): Promise<void>;
}

export interface NotificationSource {
  connect(): pg.Client;
}

export interface DatabaseOptions {
  /** SQLite file directory (used when no URL is given). */
  dataDir: string;
  /** postgres://… selects PostgreSQL. */
  url?: string | undefined;
  /** PostgreSQL schema to use (tests give each run its own). */
  schema?: string | undefined;
}

const INT8_OID = 20;
// Ids, times and amounts are int8 in PostgreSQL; all stay far below 2^53.
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running a short
 * query. Reusing statements by SQL text (bounded, oldest evicted first) keeps repositories unchanged.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database, max = 1000): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return Object.assign(Object.create(sqlite) as SqliteDatabase.Database, {
    prepare(source: string) {
      let statement = cache.get(source);
      if (!statement) {
        statement = prepare(source);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(source, statement);
      }
      return statement;
    },
  });
}

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.url) {
    const pool = (max: number) =>
      new pg.Pool({
        connectionString: options.url,
        max,
        ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
      });
    const db = new Kysely<Database>({ dialect: new SchemaScopedPostgresDialect({ pool: pool(10) }) });
    const logs = new Kysely<LogDatabase>({ dialect: new SchemaScopedPostgresDialect({ pool: pool(4) }) });
    const searchPath = options.schema ? { options: `-c search_path=${options.schema}` } : {};
    return {
      db,
      logs,
      dialect: 'postgres',
      notifications: {
        connect: () => new pg.Client({ connectionString: options.url, ...searchPath }),
      },
      close: async () => void (await Promise.all([db.destroy(), logs.destroy()])),
    };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const db = new Kysely<Database>({
    dialect: new SerialSqliteDialect({ database: openSqlite(join(options.dataDir, 'rampart.db')) }),
  });
  const logs = new Kysely<LogDatabase>({
    dialect: new SerialSqliteDialect({ database: openSqlite(join(options.dataDir, 'rampart-logs.db')) }),
  });
  return { db, logs, dialect: 'sqlite', close: async () => void (await Promise.all([db.destroy(), logs.destroy()])) };
}

function openSqlite(file: string) {
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return withStatementCache(sqlite);
}
