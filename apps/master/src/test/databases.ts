import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, type Dialect, openDatabase } from '../db/database.ts';

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

const SCHEMA_PREFIX = 'rampart_test_';

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

/** A fresh database: a SQLite file in a temp dir, or a PostgreSQL schema of its own (dropped after). */
export async function createTestDatabase(target: { dialect: Dialect; url?: string }): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rampart-test-'));
  if (target.dialect === 'sqlite' || !target.url) {
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
  const schema = `${SCHEMA_PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = openDatabase({ dataDir, url, schema });
  return {
    ...handle,
    dataDir,
    async dispose() {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
