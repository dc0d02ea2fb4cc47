import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { EdgeGeoip, GeoipDatabase } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { changeConfig } from '../config/config-version.ts';
import { deleteUploadedGeoip, readUploadedGeoip, uploadedGeoipInfo, writeUploadedGeoip } from './geoip.repository.ts';
import { readMmdbMetadata } from './mmdb.ts';

/** The database the master ships: CC0 packaging of data under CC BY 4.0 (NRO), IPv4 and IPv6. */
export const BUNDLED_PACKAGE = '@ip-location-db/geo-whois-asn-country-mmdb';
const BUNDLED_FILE = 'geo-whois-asn-country.mmdb';

interface LoadedDatabase {
  info: GeoipDatabase;
  bytes: Buffer;
}

let bundled: Promise<LoadedDatabase | null> | null = null;

/** The bundled database, read and hashed once; null where the package is not installed. */
export function bundledGeoip(): Promise<LoadedDatabase | null> {
  bundled ??= (async () => {
    let path: string;
    try {
      path = join(dirname(createRequire(import.meta.url).resolve(`${BUNDLED_PACKAGE}/package.json`)), BUNDLED_FILE);
    } catch {
      return null;
    }
    const bytes = await readFile(path).catch(() => null);
    if (!bytes) return null;
    const metadata = readMmdbMetadata(bytes);
    if (typeof metadata === 'string') return null;
    return {
      bytes,
      info: {
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
        source: 'bundled',
        name: `${BUNDLED_PACKAGE}/${BUNDLED_FILE}`,
        database_type: metadata.database_type,
        built_at: metadata.build_epoch,
        uploaded_at: 0,
        country_path: metadata.country_path,
      },
    };
  })();
  return bundled;
}

/** The database the edges use now: the uploaded one, else the bundled one; null: none at all. */
export async function currentGeoip(db: Kysely<Database>): Promise<GeoipDatabase | null> {
  const uploaded = await uploadedGeoipInfo(db);
  if (uploaded) return { ...uploaded, source: 'uploaded' };
  return (await bundledGeoip())?.info ?? null;
}

/** What a snapshot carries: the current database's digest and size. */
export async function edgeGeoip(db: Kysely<Database>): Promise<EdgeGeoip | null> {
  const current = await currentGeoip(db);
  return current
    ? { sha256: current.sha256, size: current.size, country_path: current.country_path ?? 'country_code' }
    : null;
}

// The last uploaded file agents asked for, kept so that a fleet fetching it reads the database once.
const served = new WeakMap<Kysely<Database>, { sha256: string; bytes: Buffer }>();

/** The bytes of database `sha256` when it is the bundled or the uploaded one; null otherwise. */
export async function geoipBytes(db: Kysely<Database>, sha256: string): Promise<Buffer | null> {
  const own = await bundledGeoip();
  if (own?.info.sha256 === sha256) return own.bytes;
  const cached = served.get(db);
  if (cached?.sha256 === sha256) return cached.bytes;
  const row = await readUploadedGeoip(db, sha256);
  if (!row) return null;
  served.set(db, { sha256, bytes: row });
  return row;
}

/**
 * Puts an uploaded .mmdb in place of the current database: refused unless it is a MaxMind DB (its
 * metadata decodes and fits the file). Every edge gets it with the next config.
 */
export async function uploadGeoip(db: Kysely<Database>, body: unknown, name: string | undefined) {
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw invalidParam('body', 'the .mmdb file, sent as application/octet-stream');
  }
  const metadata = readMmdbMetadata(body);
  if (typeof metadata === 'string') throw invalidParam('body', `not a MaxMind DB file: ${metadata}`);
  const info = {
    sha256: createHash('sha256').update(body).digest('hex'),
    size: body.length,
    name: name ?? 'upload.mmdb',
    database_type: metadata.database_type.slice(0, 200),
    built_at: metadata.build_epoch,
    uploaded_at: Date.now(),
    country_path: metadata.country_path,
  };
  await changeConfig(db, (trx) => writeUploadedGeoip(trx, info, body));
  served.set(db, { sha256: info.sha256, bytes: body });
  return { ...info, source: 'uploaded' as const };
}

/** Goes back to the bundled database. */
export async function restoreBundledGeoip(db: Kysely<Database>): Promise<GeoipDatabase> {
  const own = await bundledGeoip();
  if (!own) throw new AppError('not_found', 'this master ships no GeoIP database to go back to');
  await changeConfig(db, (trx) => deleteUploadedGeoip(trx));
  return own.info;
}
