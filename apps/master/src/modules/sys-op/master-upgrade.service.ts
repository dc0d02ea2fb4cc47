import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { deleteBlob, saveBlobToFile } from '../blobs/blob-store.ts';
import { bundleDir, receiveBundle } from './bundle-store.ts';
import { backupDatabase } from './database-backup.ts';
import {
  findOp,
  insertOp,
  logOp,
  newestDoneMasterUpgrade,
  openOp,
  setOpBlob,
  takeMasterBundles,
} from './sys-ops.repository.ts';

/*
 * What "upgrade" means with several masters on one database: the upgrade is the cluster's, each
 * host installs it in its own directory. The master that receives the bundle keeps it in the blob
 * store, backs the database up once and installs the release on its host; every other master then
 * installs the same release from the blob store on its own host (followMasterRelease, from its
 * periodic round). Each host's service manager starts the new release at its next restart.
 */

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

/** -1, 0 or 1 as release `a` comes before, with or after `b` (1.2.10 after 1.2.9; 1.2.3-rc.1 before 1.2.3). */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const [core = '', pre] = (version.split('+')[0] ?? '').split(/-(.*)/s);
    return { core: core.split('.'), pre };
  };
  const part = (x: string | undefined, y: string | undefined) => {
    if (x === y) return 0;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Math.sign(Number(x) - Number(y));
    return x < y ? -1 : 1;
  };
  const left = parse(a);
  const right = parse(b);
  for (let i = 0; i < Math.max(left.core.length, right.core.length); i++) {
    const order = part(left.core[i] ?? '0', right.core[i] ?? '0');
    if (order !== 0) return order;
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  const [lp, rp] = [left.pre.split('.'), right.pre.split('.')];
  for (let i = 0; i < Math.max(lp.length, rp.length); i++) {
    const order = part(lp[i], rp[i]);
    if (order !== 0) return order;
  }
  return 0;
}

export interface MasterUpgradeContext {
  db: Kysely<Database>;
  dialect: Dialect;
  databaseUrl: string | undefined;
  paths: MasterPaths;
  /** The version this master runs: another master's upgrade is installed here only when it is newer. */
  runningVersion: string;
}

/** Receives the bundle into the blob store (checked against its sha256) and records the upgrade; `applyMasterUpgrade` does the rest. */
export async function receiveMasterUpgrade(ctx: MasterUpgradeContext, body: unknown, version: string, sha256: string) {
  const open = (await openOp(ctx.db, 'master-upgrade')) ?? (await openOp(ctx.db, 'transfer'));
  if (open) throw new AppError('conflict', `${open.kind} ${open.id} is still running`);
  const id = await insertOp(ctx.db, 'master-upgrade', version, 'running');
  try {
    const blob = await receiveBundle(ctx.db, body, {
      kind: 'master-bundle',
      name: `rampart-master-${version}.tar.gz`,
      sha256,
    });
    await setOpBlob(ctx.db, id, blob.id);
    await logOp(ctx.db, id, 'info', `bundle received: ${blob.size} bytes, sha256 ${sha256} matches`);
  } catch (error) {
    await logOp(ctx.db, id, 'error', error instanceof Error ? error.message : String(error), 'failed');
    throw error;
  }
  return id;
}

/**
 * Installs a master upgrade's release on this host: reads its bundle from the blob store, unpacks it
 * under releases/master/<upgrade id>, checks that it is the version announced, and points
 * master-current at it (master-previous at the one before).
 */
async function installRelease(
  ctx: MasterUpgradeContext,
  op: { id: number; version: string; blob_id: string | null },
  step: (text: string) => Promise<void>,
) {
  if (!op.blob_id) throw new Error('the bundle of this upgrade is no longer in the database');
  const target = join(bundleDir(ctx.paths.dataDir, 'master'), String(op.id));
  const archive = `${target}.tar.gz`;
  await mkdir(target, { recursive: true });
  try {
    await saveBlobToFile(ctx.db, op.blob_id, archive);
    const names = (await run('tar', ['-tzf', archive])).split('\n').filter(Boolean);
    const unsafe = unsafeEntries(names);
    if (unsafe.length > 0)
      throw new Error(`the bundle holds paths outside its directory: ${unsafe.slice(0, 3).join(', ')}`);
    await run('tar', ['-xzf', archive, '-C', target, '--no-same-owner', '--no-same-permissions']);
    await step(`unpacked ${names.length} entries into ${target}`);
  } finally {
    await rm(archive, { force: true });
  }

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
}

/** Bundles of master upgrades no master will install any more leave the blob store. */
async function dropMasterBundles(db: Kysely<Database>, which: { id: number; older: boolean }) {
  for (const blobId of await takeMasterBundles(db, which)) await deleteBlob(db, blobId);
}

/**
 * Backs the database up, then installs the release on this host (installRelease). The running
 * process is left alone: the service manager starts the new release at its next restart. The bundle
 * stays in the blob store for the other masters; those of earlier upgrades go.
 */
export async function applyMasterUpgrade(ctx: MasterUpgradeContext, id: number, signal: AbortSignal) {
  const op = await findOp(ctx.db, id);
  if (!op) return;
  const step = async (text: string) => {
    if (signal.aborted) throw new Error('the master is shutting down');
    await logOp(ctx.db, id, 'info', text);
  };
  try {
    await step('backing up the database');
    const backup = await backupDatabase(ctx.db, ctx.dialect, ctx.databaseUrl, {
      dir: ctx.paths.backups,
      stamp: timeStamp(),
      kind: 'database-backup',
      signal,
    });
    await step(`backup written: ${backup.where} (${backup.how})`);
    await rm(join(bundleDir(ctx.paths.dataDir, 'master'), String(id)), { recursive: true, force: true });
    await installRelease(ctx, op, step);
  } catch (error) {
    await logOp(ctx.db, id, 'error', error instanceof Error ? error.message : String(error), 'failed');
    await dropMasterBundles(ctx.db, { id, older: false }).catch(() => undefined);
    return;
  }
  // From now on the other masters follow this release; the bundles of earlier ones are not needed.
  await dropMasterBundles(ctx.db, { id, older: true }).catch((error: unknown) =>
    logOp(ctx.db, id, 'warn', `earlier bundles kept: ${error instanceof Error ? error.message : String(error)}`),
  );
  await logOp(
    ctx.db,
    id,
    'info',
    'done: restart the master service to run the new release (other masters install it on their hosts by themselves); to go back, point master-current at master-previous and restore the backup',
    'done',
  );
}

/**
 * Installs on this host the newest master upgrade another master completed, when it is newer than
 * the release this master runs and this host has not installed (or tried) it yet; its log says how
 * it went on each host. True when it tried.
 */
export async function followMasterRelease(ctx: MasterUpgradeContext, signal: AbortSignal): Promise<boolean> {
  const op = await newestDoneMasterUpgrade(ctx.db);
  if (!op?.blob_id || compareVersions(op.version, ctx.runningVersion) <= 0) return false;
  const target = join(bundleDir(ctx.paths.dataDir, 'master'), String(op.id));
  if (existsSync(target)) return false;
  const host = `${hostname()} (${ctx.paths.dataDir})`;
  const step = async (text: string) => {
    if (signal.aborted) throw new Error('the master is shutting down');
    await logOp(ctx.db, op.id, 'info', `${host}: ${text}`);
  };
  try {
    await installRelease(ctx, op, step);
    await logOp(ctx.db, op.id, 'info', `${host}: restart the master service there to run the new release`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await logOp(ctx.db, op.id, 'error', `${host}: ${reason}; remove ${target} to try again`);
  }
  return true;
}
