import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A platform certificate as kept: its PEM and validity (ms since the epoch). */
export interface StoredPlatformCert {
  serial: string;
  certPem: string;
  effectiveAt: number;
  expiresAt: number;
  fetchedAt: number;
}

/** The merchant's downloaded platform certificates, newest expiry first. */
export async function listPlatformCerts(db: Kysely<Database>, mchid: string): Promise<StoredPlatformCert[]> {
  const rows = await db
    .selectFrom('wxpay_platform_certs')
    .select(['serial', 'cert_pem', 'effective_at', 'expires_at', 'fetched_at'])
    .where('mchid', '=', mchid)
    .orderBy('expires_at', 'desc')
    .execute();
  return rows.map((row) => ({
    serial: row.serial,
    certPem: row.cert_pem,
    effectiveAt: Number(row.effective_at),
    expiresAt: Number(row.expires_at),
    fetchedAt: Number(row.fetched_at),
  }));
}

/** Keeps the certificates of one download (by serial) and drops the merchant's expired ones. */
export async function savePlatformCerts(
  db: Kysely<Database>,
  mchid: string,
  certs: readonly StoredPlatformCert[],
  now: number,
) {
  await db.transaction().execute(async (trx) => {
    for (const cert of certs) {
      const row = {
        cert_pem: cert.certPem,
        effective_at: cert.effectiveAt,
        expires_at: cert.expiresAt,
        fetched_at: cert.fetchedAt,
      };
      await trx
        .insertInto('wxpay_platform_certs')
        .values({ mchid, serial: cert.serial, ...row })
        .onConflict((oc) => oc.columns(['mchid', 'serial']).doUpdateSet(row))
        .execute();
    }
    await trx.deleteFrom('wxpay_platform_certs').where('mchid', '=', mchid).where('expires_at', '<', now).execute();
  });
}
