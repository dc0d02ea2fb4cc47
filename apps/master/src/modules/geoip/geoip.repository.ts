import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { GeoipDatabasesTable } from '../../db/schema-geoip.ts';

type UploadedInfo = Omit<GeoipDatabasesTable, 'id' | 'content'>;

/** The uploaded database's description (not its bytes), or null when none was uploaded. */
export async function uploadedGeoipInfo(db: Kysely<Database>): Promise<UploadedInfo | null> {
  const row = await db
    .selectFrom('geoip_databases')
    .select(['sha256', 'size', 'name', 'database_type', 'built_at', 'uploaded_at', 'country_path'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row
    ? { ...row, size: Number(row.size), built_at: Number(row.built_at), uploaded_at: Number(row.uploaded_at) }
    : null;
}

/** The uploaded database's bytes when its digest is `sha256`. */
export async function readUploadedGeoip(db: Kysely<Database>, sha256: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('geoip_databases')
    .select('content')
    .where('id', '=', 1)
    .where('sha256', '=', sha256)
    .executeTakeFirst();
  return row ? Buffer.from(row.content) : null;
}

export async function writeUploadedGeoip(db: Kysely<Database>, info: UploadedInfo, content: Buffer): Promise<void> {
  await db.deleteFrom('geoip_databases').where('id', '=', 1).execute();
  await db
    .insertInto('geoip_databases')
    .values({ id: 1, ...info, content })
    .execute();
}

export async function deleteUploadedGeoip(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('geoip_databases').where('id', '=', 1).execute();
}
