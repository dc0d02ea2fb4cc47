import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { writeBlob } from '../blobs/blob-store.ts';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** The blob store's own tables: left out of a dump's data (see backupDatabase). */
const BLOB_TABLES = ['blobs', 'blob_chunks'];

export interface DatabaseCopy {
  /** What the log tells the admin: the file, or the blob and where to download it. */
  where: string;
  how: string;
  /** Set when the copy is in the blob store. */
  blobId?: string;
}

/** Where an admin downloads a copy kept in the blob store, from any master. */
export const backupDownloadPath = (blobId: string) => `/v1/master/backups/${blobId}`;

/**
 * A consistent copy of the config database. SQLite: `VACUUM INTO` a new file under `dir` (one read
 * transaction: writers go on, the copy is whole); one master serves a SQLite database, so its data
 * directory is the place, and a copy kept inside the database would be copied again into every later
 * one. PostgreSQL: `pg_dump --format=custom` of the master's schema, from a snapshot of its own,
 * streamed into the blob store so that any master serves it; the blob store's content is left out
 * (bundles and earlier copies: restoring gives their records without them). The connection is handed
 * over in PG* variables, so the password is in no command line. Logs and metrics are left out: they
 * are not needed to restart.
 */
export async function backupDatabase(
  db: Kysely<Database>,
  dialect: Dialect,
  databaseUrl: string | undefined,
  target: { dir: string; stamp: string; kind: 'database-backup' | 'database-export'; signal?: AbortSignal },
): Promise<DatabaseCopy> {
  if (dialect === 'sqlite') {
    await mkdir(target.dir, { recursive: true, mode: 0o700 });
    const file = join(target.dir, `rampart-${target.stamp}.db`);
    await sql`VACUUM INTO ${file}`.execute(db);
    return { where: file, how: 'SQLite VACUUM INTO (a consistent copy taken in one read transaction)' };
  }
  if (!databaseUrl) throw new Error('the PostgreSQL address is not known to this master');
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema ${schema} is not a plain name`);
  const url = new URL(databaseUrl);
  const env = {
    ...process.env,
    PGHOST: decodeURIComponent(url.hostname.replace(/^\[|\]$/g, '')),
    PGPORT: url.port || '5432',
    PGUSER: decodeURIComponent(url.username),
    PGPASSWORD: decodeURIComponent(url.password),
    PGDATABASE: decodeURIComponent(url.pathname.slice(1)),
  };
  const args = [
    '--format=custom',
    '--no-owner',
    `--schema=${schema}`,
    ...BLOB_TABLES.map((table) => `--exclude-table-data=${schema}.${table}`),
  ];
  const blob = await writeBlob(
    db,
    { kind: target.kind, name: `rampart-${target.stamp}.dump`, maxBytes: Number.MAX_SAFE_INTEGER },
    commandOutput('pg_dump', args, env, target.signal),
  );
  return {
    where: `blob ${blob.id} in the database, ${blob.size} bytes (download it from any master: GET ${backupDownloadPath(blob.id)})`,
    how: `pg_dump --format=custom of schema ${schema} (restore with pg_restore)`,
    blobId: blob.id,
  };
}

/** What `command` writes to stdout; fails at the end, so nothing is kept, when it does not exit 0. */
async function* commandOutput(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
): AsyncGenerator<Buffer> {
  const child = spawn(command, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30 * 60_000,
    ...(signal && { signal }),
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (stderr.length < 2000) stderr += text;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  exited.catch(() => undefined);
  try {
    for await (const piece of child.stdout) yield piece as Buffer;
    const code = await exited.catch((error: unknown) => {
      throw new Error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (code !== 0) throw new Error(`${command} failed: ${stderr.slice(0, 500) || `exit code ${code}`}`);
  } finally {
    // The consumer stopped early (the database refused a chunk): the command has no reader left.
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}
