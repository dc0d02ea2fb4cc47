import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, type Dialect, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { newSchemaName, quoteIdent, SCHEMA_PREFIX, withClient } from './pg-schemas.ts';

const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The dialects repository and API tests run on: SQLite always; PostgreSQL when RAMPART_TEST_PG_URL
 * is set (then it must answer) or one answers on 127.0.0.1:5432. Skipping PostgreSQL says so.
 */
async function findDialects(): Promise<{ dialect: Dialect; url?: string }[]> {
  const configured = process.env.RAMPART_TEST_PG_URL;
  const url = configured || DEFAULT_PG_URL;
  if (await postgresAnswers(url)) {
    await dropStaleSchemas(url);
    return [{ dialect: 'sqlite' }, { dialect: 'postgres', url }];
  }
  if (configured) throw new Error(`RAMPART_TEST_PG_URL is set but PostgreSQL does not answer at ${configured}`);
  console.warn(
    `SKIPPING PostgreSQL tests: no PostgreSQL answers at ${DEFAULT_PG_URL} and RAMPART_TEST_PG_URL is not set`,
  );
  return [{ dialect: 'sqlite' }];
}

/** Schemas a killed run left behind (their names carry their creation time) go after an hour. */
async function dropStaleSchemas(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'select schema_name as name from information_schema.schemata where schema_name like $1',
      [`${SCHEMA_PREFIX}%`],
    );
    const cutoff = Math.floor(Date.now() / 1000) - 3600;
    for (const { name } of rows) {
      const created = Number(name.slice(SCHEMA_PREFIX.length).split('_')[0]);
      if (!(created > cutoff)) await client.query(`drop schema if exists "${name}" cascade`).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

export const DIALECTS = await findDialects();

export interface TestDatabase extends DatabaseHandle {
  dataDir: string;
  dispose(): Promise<void>;
}

/**
 * Migrating a new database costs 0.1 s on SQLite and over a second on PostgreSQL (DDL is what costs
 * there), and most tests start from the latest schema. SQLite: each test worker migrates one template
 * and copies its two files (the template goes when the worker exits). PostgreSQL: a disposed schema
 * is emptied back to its state right after migration (rows deleted, the migrations' own rows and the
 * sequences restored, tables made since dropped) and handed to the worker's next test, in this file
 * or the next; the run drops them all when it ends (dropRunSchemas).
 */
let sqliteTemplate: Promise<string> | undefined;

const SQLITE_FILES = ['rampart.db', 'rampart-logs.db'];

async function copySqliteTemplate(dataDir: string) {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rampart-template-'));
    const handle = openDatabase({ dataDir: dir });
    await migrateToLatest(handle);
    await handle.close();
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  })();
  const dir = await sqliteTemplate;
  for (const file of SQLITE_FILES) {
    if (existsSync(join(dir, file))) copyFileSync(join(dir, file), join(dataDir, file));
  }
}

/** What a freshly migrated schema holds: its tables, their rows, its sequences' positions. */
interface MigratedState {
  tables: Set<string>;
  rows: Map<string, unknown[]>;
  sequences: Map<string, { last_value: number; is_called: boolean }>;
}

const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

async function readState(client: pg.Client, schema: string): Promise<MigratedState> {
  const tables = (
    await client.query<{ name: string }>('select tablename as name from pg_tables where schemaname = $1', [schema])
  ).rows.map((row) => row.name);
  const rows = new Map<string, unknown[]>();
  for (const table of tables) {
    const result = await client.query(`select * from ${quoteIdent(schema)}.${quoteIdent(table)}`);
    if (result.rows.length > 0) rows.set(table, result.rows);
  }
  const sequences = new Map<string, { last_value: number; is_called: boolean }>();
  const names = await client.query<{ name: string }>(
    'select sequencename as name from pg_sequences where schemaname = $1',
    [schema],
  );
  for (const { name } of names.rows) {
    const result = await client.query<{ last_value: number; is_called: boolean }>(
      `select last_value, is_called from ${quoteIdent(schema)}.${quoteIdent(name)}`,
    );
    const position = result.rows[0];
    if (position) sequences.set(name, position);
  }
  return { tables: new Set(tables), rows, sequences };
}

interface SchemaPool {
  /** Schemas being emptied or empty, ready for the next test. */
  free: Promise<string | undefined>[];
  migrated?: Promise<MigratedState>;
}

const pools = new Map<string, SchemaPool>();

function poolFor(url: string): SchemaPool {
  let pool = pools.get(url);
  if (!pool) {
    pool = { free: [] };
    pools.set(url, pool);
  }
  return pool;
}

async function takeMigratedSchema(url: string): Promise<string> {
  const pool = poolFor(url);
  while (pool.free.length > 0) {
    const reused = await pool.free.shift();
    if (reused) return reused;
  }
  const schema = newSchemaName();
  await withClient(url, (client) => client.query(`create schema ${schema}`));
  const handle = openDatabase({ dataDir: tmpdir(), url, schema });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }
  pool.migrated ??= withClient(url, (client) => readState(client, schema));
  await pool.migrated;
  return schema;
}

/** Empties the schema in the background; the next test that wants a schema waits for it. */
function returnMigratedSchema(url: string, schema: string) {
  const pool = poolFor(url);
  pool.free.push(
    resetSchema(url, schema, pool).then(
      () => schema,
      () => undefined, // left for the run's end to drop
    ),
  );
}

async function resetSchema(url: string, schema: string, pool: SchemaPool) {
  const state = await pool.migrated;
  if (!state) throw new Error('no migrated state recorded');
  await withClient(url, async (client) => {
    const present = await client.query<{ name: string }>(
      'select tablename as name from pg_tables where schemaname = $1',
      [schema],
    );
    const at = (name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;
    const statements = ['set session_replication_role = replica'];
    for (const { name } of present.rows) {
      statements.push(state.tables.has(name) ? `delete from ${at(name)}` : `drop table if exists ${at(name)} cascade`);
    }
    for (const [table, rows] of state.rows) {
      statements.push(
        `insert into ${at(table)} overriding system value select * from json_populate_recordset(null::${at(table)}, ${quoteLiteral(JSON.stringify(rows))})`,
      );
    }
    for (const [sequence, { last_value, is_called }] of state.sequences) {
      statements.push(`select setval(${quoteLiteral(at(sequence))}, ${last_value}, ${is_called})`);
    }
    statements.push('set session_replication_role = default');
    await client.query(statements.join(';\n'));
  });
}

/**
 * A fresh database: a SQLite file in a temp dir, or a PostgreSQL schema of its own (dropped after).
 * `migrated`: already at the latest schema (a copy of a template), as a master would leave it.
 */
export async function createTestDatabase(
  target: { dialect: Dialect; url?: string },
  options: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rampart-test-'));
  if (target.dialect === 'sqlite' || !target.url) {
    if (options.migrated) await copySqliteTemplate(dataDir);
    const handle = openDatabase({ dataDir });
    return {
      ...handle,
      dataDir,
      async dispose() {
        await handle.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const url = target.url;
  const schema = options.migrated ? await takeMigratedSchema(url) : newSchemaName();
  if (!options.migrated) await withClient(url, (client) => client.query(`create schema ${schema}`));
  const handle = openDatabase({ dataDir, url, schema });
  return {
    ...handle,
    dataDir,
    async dispose() {
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (options.migrated) returnMigratedSchema(url, schema);
      else await withClient(url, (client) => client.query(`drop schema ${schema} cascade`));
    },
  };
}

/**
 * Another master's handle on a test's database: on PostgreSQL a pool of its own on the same schema
 * (as another host would have); SQLite serves one master, so there it is the same handle, not closed.
 */
export async function otherMasterHandle(
  database: DatabaseHandle & { dataDir: string },
  target: { url?: string },
): Promise<{ db: DatabaseHandle['db']; handle: DatabaseHandle; close(): Promise<void> }> {
  if (!target.url) return { db: database.db, handle: database, close: async () => undefined };
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  const handle = openDatabase({ dataDir: database.dataDir, url: target.url, schema: rows[0]?.schema });
  return { db: handle.db, handle, close: () => handle.close() };
}
