import { execFile } from 'node:child_process';
import { mkdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { bundleDir, receiveBundle } from './bundle-store.ts';
import { backupDatabase } from './database-backup.ts';
import { findOp, insertOp, logOp, openOp } from './sys-ops.repository.ts';

export interface MasterPaths {
  dataDir: string;
  /** Symlink to the release the master's service runs; `master-previous` keeps the one before. */
  current: string;
  previous: string;
  backups: string;
}

export const masterPaths = (dataDir: string): MasterPaths => ({
  dataDir,
  current: join(dataDir, 'master-current'),
  previous: join(dataDir, 'master-previous'),
  backups: join(dataDir, 'backups'),
});

export const timeStamp = (ms = Date.now()) => new Date(ms).toISOString().replace(/[:.]/g, '-');

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 10 * 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error
        ? reject(new Error(`${command} failed: ${String(stderr).slice(0, 500) || error.message}`))
        : resolve(String(stdout)),
    );
  });
}

/** Names in a tar archive that would land outside the directory it is unpacked in. */
export const unsafeEntries = (names: string[]) =>
  names.filter((name) => name.startsWith('/') || name.split('/').includes('..'));

/** Points `link` at `target` in one rename, so a reader sees the old or the new target, never none. */
async function swapLink(link: string, target: string) {
  const temp = `${link}.${process.pid}.tmp`;
  await rm(temp, { force: true });
  await symlink(target, temp);
  await rename(temp, link);
}

export interface MasterUpgradeContext {
  db: Kysely<Database>;
  dialect: Dialect;
  databaseUrl: string | undefined;
  paths: MasterPaths;
}

/** Receives the bundle (checked against its sha256) and records the upgrade; `applyMasterUpgrade` does the rest. */
export async function receiveMasterUpgrade(ctx: MasterUpgradeContext, body: unknown, version: string, sha256: string) {
  const open = (await openOp(ctx.db, 'master-upgrade')) ?? (await openOp(ctx.db, 'transfer'));
  if (open) throw new AppError('conflict', `${open.kind} ${open.id} is still running`);
  const id = await insertOp(ctx.db, 'master-upgrade', version, 'running');
  const archive = join(bundleDir(ctx.paths.dataDir, 'master'), `${id}.tar.gz`);
  try {
    const size = await receiveBundle(body, archive, sha256);
    await logOp(ctx.db, id, 'info', `bundle received: ${size} bytes, sha256 ${sha256} matches`);
  } catch (error) {
    await logOp(ctx.db, id, 'error', error instanceof Error ? error.message : String(error), 'failed');
    throw error;
  }
  return { id, archive };
}

/**
 * Backs the database up, unpacks the release beside the others, checks that it is the version
 * announced, and points master-current at it (master-previous at the one before). The running
 * process is left alone: the service manager starts the new release at its next restart.
 */
export async function applyMasterUpgrade(ctx: MasterUpgradeContext, id: number, archive: string, signal: AbortSignal) {
  const op = await findOp(ctx.db, id);
  if (!op) return;
  const step = async (text: string) => {
    if (signal.aborted) throw new Error('the master is shutting down');
    await logOp(ctx.db, id, 'info', text);
  };
  try {
    await step('backing up the database');
    const backup = await backupDatabase(ctx.db, ctx.dialect, ctx.databaseUrl, ctx.paths.backups, timeStamp());
    await step(`backup written: ${backup.file} (${backup.how})`);

    const names = (await run('tar', ['-tzf', archive])).split('\n').filter(Boolean);
    const unsafe = unsafeEntries(names);
    if (unsafe.length > 0)
      throw new Error(`the bundle holds paths outside its directory: ${unsafe.slice(0, 3).join(', ')}`);
    const target = join(bundleDir(ctx.paths.dataDir, 'master'), String(id));
    await rm(target, { recursive: true, force: true });
    await mkdir(target, { recursive: true });
    await run('tar', ['-xzf', archive, '-C', target, '--no-same-owner', '--no-same-permissions']);
    await step(`unpacked ${names.length} entries into ${target}`);

    const manifest = join(target, 'apps/master/package.json');
    let found: string | undefined;
    try {
      found = (JSON.parse(await readFile(manifest, 'utf8')) as { version?: string }).version;
    } catch {
      throw new Error('the bundle has no apps/master/package.json: not a master release');
    }
    if (found !== op.version) throw new Error(`the bundle is version ${found ?? '(none)'}, not ${op.version}`);

    const before = await readlink(ctx.paths.current).catch(() => null);
    if (before) await swapLink(ctx.paths.previous, before);
    await swapLink(ctx.paths.current, relative(ctx.paths.dataDir, target));
    await step(
      `${ctx.paths.current} now points at release ${op.version}${before ? ` (the previous one stays at ${ctx.paths.previous})` : ''}`,
    );
    await logOp(
      ctx.db,
      id,
      'info',
      'done: restart the master service to run the new release; to go back, point master-current at master-previous and restore the backup',
      'done',
    );
  } catch (error) {
    await logOp(ctx.db, id, 'error', error instanceof Error ? error.message : String(error), 'failed');
  } finally {
    await rm(archive, { force: true });
  }
}
