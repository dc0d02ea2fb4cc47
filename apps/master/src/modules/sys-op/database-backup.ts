import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A consistent copy of the config database under `dir`. SQLite: `VACUUM INTO` a new file (one
 * read transaction: writers go on, the copy is whole). PostgreSQL: `pg_dump --format=custom` of the
 * master's schema, from a snapshot of its own; the connection is handed over in PG* variables, so
 * the password is in no command line. Logs and metrics are left out: they are not needed to restart.
 */
export async function backupDatabase(
  db: Kysely<Database>,
  dialect: Dialect,
  databaseUrl: string | undefined,
  dir: string,
  stamp: string,
): Promise<{ file: string; how: string }> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (dialect === 'sqlite') {
    const file = join(dir, `rampart-${stamp}.db`);
    await sql`VACUUM INTO ${file}`.execute(db);
    return { file, how: 'SQLite VACUUM INTO (a consistent copy taken in one read transaction)' };
  }
  if (!databaseUrl) throw new Error('the PostgreSQL address is not known to this master');
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema ${schema} is not a plain name`);
  const file = join(dir, `rampart-${stamp}.dump`);
  const url = new URL(databaseUrl);
  const env = {
    ...process.env,
    PGHOST: decodeURIComponent(url.hostname.replace(/^\[|\]$/g, '')),
    PGPORT: url.port || '5432',
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: decodeURIComponent(url.pathname.slice(1)),
  };
  await new Promise<void>((resolve, reject) => {
    execFile(
      'pg_dump',
      ['--format=custom', '--no-owner', `--schema=${schema}`, `--file=${file}`],
      { env, timeout: 30 * 60_000, maxBuffer: 1024 * 1024 },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`pg_dump failed: ${String(stderr).slice(0, 500) || error.message}`)) : resolve(),
    );
  });
  return { file, how: `pg_dump --format=custom of schema ${schema} (restore with pg_restore)` };
}
