import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { EdgeGeoip, GeoipCountryPath } from '@rampart/contracts';
import { writeFileAtomic } from '../fs-atomic.ts';
import { GEOIP_MODULE } from '../render/nginx-conf.ts';

/** Where an agent keeps GeoIP databases: one file per digest, `<sha256>.mmdb`. */
export const geoipDir = (dataDir: string) => join(dataDir, 'geoip');

const DIGEST = /^[0-9a-f]{64}$/;

/** The file of database `sha256` (a digest checked to be hex, so it never names another path). */
export function geoipFile(dataDir: string, sha256: string): string {
  if (!DIGEST.test(sha256)) throw new Error('geoip: sha256 is not 64 hex digits');
  return join(geoipDir(dataDir), `${sha256}.mmdb`);
}

/**
 * The database the config may use: the snapshot's, when this node holds it (its digest was checked
 * before it was written) and nginx has the geoip2 module; null otherwise (no country lookups).
 */
export function geoipForRender(
  dataDir: string,
  modulesDir: string,
  geoip: EdgeGeoip | undefined,
): { db: string; countryPath: GeoipCountryPath } | null {
  if (!geoip || !DIGEST.test(geoip.sha256)) return null;
  const db = geoipFile(dataDir, geoip.sha256);
  if (!existsSync(db) || !existsSync(join(modulesDir, GEOIP_MODULE))) return null;
  return { db, countryPath: geoip.country_path === 'country.iso_code' ? 'country.iso_code' : 'country_code' };
}

/** Downloads a database's bytes (from the master, with the node credential). */
export type GeoipDownload = (sha256: string, signal?: AbortSignal) => Promise<Uint8Array>;

/**
 * Makes sure this node holds database `geoip`: downloaded once, its size and sha256 checked, then
 * written under its digest in one rename (nginx never reads a half-written or foreign file). Keeps
 * the two before it too (the last proven config, or the one before it, may still name one: nginx
 * started with it after a reboot must find it). Throws why it could not.
 */
export async function ensureGeoip(
  dataDir: string,
  geoip: EdgeGeoip,
  download: GeoipDownload,
  signal?: AbortSignal,
): Promise<string> {
  const file = geoipFile(dataDir, geoip.sha256);
  if (existsSync(file)) return file;
  const bytes = await download(geoip.sha256, signal);
  if (bytes.length !== geoip.size) {
    throw new Error(`geoip: the database downloaded has ${bytes.length} bytes, not ${geoip.size}`);
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== geoip.sha256)
    throw new Error(`geoip: the database downloaded has sha256 ${actual}, not ${geoip.sha256}`);
  await mkdir(geoipDir(dataDir), { recursive: true });
  await writeFileAtomic(file, bytes, 0o644);
  await pruneGeoip(dataDir, 3);
  return file;
}

/** Removes all but the `keep` newest databases. */
async function pruneGeoip(dataDir: string, keep: number): Promise<void> {
  const dir = geoipDir(dataDir);
  const names = (await readdir(dir)).filter((name) => /^[0-9a-f]{64}\.mmdb$/.test(name));
  const dated = await Promise.all(names.map(async (name) => ({ name, at: (await stat(join(dir, name))).mtimeMs })));
  dated.sort((a, b) => b.at - a.at);
  for (const old of dated.slice(keep)) await rm(join(dir, old.name), { force: true });
}

/** Downloads from the master's /agent/v1/geoip/{sha256} with the node credential. */
export function masterGeoipDownload(baseUrl: () => string, headers: Record<string, string>): GeoipDownload {
  return async (sha256, signal) => {
    const timeout = AbortSignal.timeout(300_000);
    const response = await fetch(`${baseUrl()}/agent/v1/geoip/${sha256}`, {
      headers,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) throw new Error(`geoip: the master answered ${response.status} to the database download`);
    return new Uint8Array(await response.arrayBuffer());
  };
}
