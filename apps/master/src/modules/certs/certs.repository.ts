import type { Cert } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { CertsTable, Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import type { ParsedCert } from './cert-validation.ts';

export type CertRow = Selectable<CertsTable>;

/** Never the key: calls only ever see this. */
export const presentCert = (row: CertRow): Cert => ({
  id: row.id,
  user_id: row.user_id,
  name: row.name,
  names: JSON.parse(row.names) as string[],
  issuer: row.issuer,
  not_before: new Date(row.not_before).toISOString(),
  not_after: new Date(row.not_after).toISOString(),
  created_at: new Date(row.created_at).toISOString(),
});

export const findCert = (db: Kysely<Database>, owner: Owner, id: number) =>
  db
    .selectFrom('certs')
    .selectAll()
    .where('id', '=', id)
    .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
    .executeTakeFirst();

export async function listCerts(db: Kysely<Database>, owner: Owner, page: number, limit: number) {
  const scoped = db.selectFrom('certs').$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId));
  const [rows, count] = await Promise.all([
    scoped
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentCert), total: Number(count.n) };
}

export async function insertCert(db: Kysely<Database>, userId: number, name: string, parsed: ParsedCert, now: number) {
  return db
    .insertInto('certs')
    .values({
      user_id: userId,
      name,
      cert_pem: parsed.certPem,
      key_pem: parsed.keyPem,
      names: JSON.stringify(parsed.names),
      issuer: parsed.issuer,
      not_before: parsed.notBefore,
      not_after: parsed.notAfter,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function replaceCert(
  db: Kysely<Database>,
  id: number,
  name: string,
  parsed: ParsedCert | undefined,
  now: number,
) {
  return db
    .updateTable('certs')
    .set({
      name,
      ...(parsed && {
        cert_pem: parsed.certPem,
        key_pem: parsed.keyPem,
        names: JSON.stringify(parsed.names),
        issuer: parsed.issuer,
        not_before: parsed.notBefore,
        not_after: parsed.notAfter,
      }),
      updated_at: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const countSitesUsingCert = async (db: Kysely<Database>, certId: number) =>
  Number(
    (
      await db
        .selectFrom('sites')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('cert_id', '=', certId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export async function deleteCert(db: Kysely<Database>, id: number) {
  await db.deleteFrom('certs').where('id', '=', id).execute();
}
