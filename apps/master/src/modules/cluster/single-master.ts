import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';

// Held here as well as by the caller: a lock connection collected as garbage would let the lock go.
const heldLocks = new Set<SqliteDatabase.Database>();

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/**
 * SQLite serves one master: the master holds an exclusive lock on `<data>/master.lock` (an empty
 * SQLite file whose write lock it never lets go) for as long as it runs. The operating system drops
 * the lock when the process ends however it ends, so a master killed with -9 leaves nothing to
 * clean up, and a second master on the same directory is refused at once. Who holds it is written
 * beside it, for the message.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const file = join(dataDir, 'master.lock');
  const about = `${file}.json`;
  const lock = new SqliteDatabase(file, { timeout: 0 });
  try {
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    throw new DataDirInUseError(
      `another master is running on the SQLite data directory ${dataDir}${holderOf(about)}. ` +
        'SQLite serves one master at a time: stop the other one, or give each master its own RAMPART_DATA_DIR. ' +
        'To run several masters on one database, use PostgreSQL (RAMPART_DATABASE_URL; see "Running several masters" in the README).',
    );
  }
  writeFileSync(about, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
  heldLocks.add(lock);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      rmSync(about, { force: true });
      heldLocks.delete(lock);
      lock.exec('ROLLBACK');
      lock.close();
    },
  };
}

function holderOf(about: string): string {
  try {
    const holder = JSON.parse(readFileSync(about, 'utf8')) as { pid?: unknown; host?: unknown; since?: unknown };
    return ` (pid ${String(holder.pid)} on ${String(holder.host)}, since ${String(holder.since)})`;
  } catch {
    return '';
  }
}
