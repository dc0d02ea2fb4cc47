import type { AcmeChallengeType, Cert, CertSource, CertStatus } from '@rampart/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { CertsTable, Database } from '../../db/schema.ts';
import type { Owner } from '../tenancy.ts';
import type { ParsedCert } from './cert-validation.ts';

export type CertRow = Selectable<CertsTable>;
/** A certificate with the state of its latest issuance task. */
export type CertWithTask = CertRow & {
  task_state: string | null;
  task_progress: string | null;
  task_error: string | null;
};

const iso = (ms: number) => new Date(ms).toISOString();

const statusOf = (taskState: string | null): CertStatus => {
  if (taskState === 'queued' || taskState === 'running') return 'issuing';
  return taskState === 'failed' ? 'failed' : 'issued';
};

/** Never the key: calls only ever see this. */
export const presentCert = (row: CertWithTask): Cert => {
  const issued = row.cert_pem !== '';
  const names = JSON.parse(row.names) as string[];
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    source: row.source as CertSource,
    names,
    domains: row.source === 'acme' ? (JSON.parse(row.domains) as string[]) : names,
    challenge: row.challenge as AcmeChallengeType | null,
    dnsapi_id: row.dnsapi_id,
    status: statusOf(row.task_state),
    progress: row.task_progress ?? '',
    error: row.task_error ?? '',
    renew_at: row.renew_at === null ? null : iso(row.renew_at),
    issuer: row.issuer,
    not_before: issued ? iso(row.not_before) : null,
    not_after: issued ? iso(row.not_after) : null,
    created_at: iso(row.created_at),
  };
};

const withTask = (db: Kysely<Database>) =>
  db
    .selectFrom('certs')
    .leftJoin('tasks', 'tasks.id', 'certs.task_id')
    .selectAll('certs')
    .select(['tasks.state as task_state', 'tasks.progress as task_progress', 'tasks.error as task_error']);

export const findCert = (db: Kysely<Database>, owner: Owner, id: number): Promise<CertWithTask | undefined> =>
  withTask(db)
    .where('certs.id', '=', id)
    .$if(owner.kind === 'user', (qb) => qb.where('certs.user_id', '=', owner.userId))
    .executeTakeFirst();

/** For the task runner, which acts for the certificate's owner. */
export const findCertById = (db: Kysely<Database>, id: number) =>
  db.selectFrom('certs').selectAll().where('id', '=', id).executeTakeFirst();

export async function listCerts(db: Kysely<Database>, owner: Owner, page: number, limit: number) {
  const [rows, count] = await Promise.all([
    withTask(db)
      .leftJoin('users', 'users.id', 'certs.user_id')
      .select('users.username as user_account')
      .$if(owner.kind === 'user', (qb) => qb.where('certs.user_id', '=', owner.userId))
      .orderBy('certs.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    db
      .selectFrom('certs')
      .$if(owner.kind === 'user', (qb) => qb.where('user_id', '=', owner.userId))
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((row) => ({ ...presentCert(row), user_account: row.user_account })), total: Number(count.n) };
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
      source: 'upload',
      challenge: null,
      dnsapi_id: null,
      task_id: null,
      renew_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export interface AcmeRequest {
  domains: string[];
  challenge: AcmeChallengeType;
  dnsapiId: number | null;
}

/** An ACME certificate before its first issuance: no PEM, no names, times 0. */
export async function insertAcmeCert(
  db: Kysely<Database>,
  userId: number,
  name: string,
  request: AcmeRequest,
  now: number,
) {
  return db
    .insertInto('certs')
    .values({
      user_id: userId,
      name,
      cert_pem: '',
      key_pem: '',
      names: '[]',
      issuer: '',
      not_before: 0,
      not_after: 0,
      created_at: now,
      updated_at: now,
      source: 'acme',
      domains: JSON.stringify(request.domains),
      challenge: request.challenge,
      dnsapi_id: request.dnsapiId,
      task_id: null,
      renew_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function setAcmeRequest(db: Kysely<Database>, id: number, request: AcmeRequest, now: number) {
  await db
    .updateTable('certs')
    .set({
      domains: JSON.stringify(request.domains),
      challenge: request.challenge,
      dnsapi_id: request.dnsapiId,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function setCertTask(db: Kysely<Database>, id: number, taskId: number) {
  await db.updateTable('certs').set({ task_id: taskId }).where('id', '=', id).execute();
}

export async function setRenewAt(db: Kysely<Database>, id: number, renewAt: number) {
  await db.updateTable('certs').set({ renew_at: renewAt }).where('id', '=', id).execute();
}

/** Stores a freshly issued certificate and when to renew it. */
export async function storeIssuedCert(
  db: Kysely<Database>,
  id: number,
  parsed: ParsedCert,
  renewAt: number,
  now: number,
) {
  await db
    .updateTable('certs')
    .set({
      cert_pem: parsed.certPem,
      key_pem: parsed.keyPem,
      names: JSON.stringify(parsed.names),
      issuer: parsed.issuer,
      not_before: parsed.notBefore,
      not_after: parsed.notAfter,
      renew_at: renewAt,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function replaceCert(
  db: Kysely<Database>,
  id: number,
  name: string,
  parsed: ParsedCert | undefined,
  now: number,
) {
  await db
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
    .execute();
}

/** ACME certificates the renewal sweep should issue again: due, and with no issuance queued or running. */
export const certsDueForRenewal = (db: Kysely<Database>, now: number) =>
  db
    .selectFrom('certs')
    .leftJoin('tasks', 'tasks.id', 'certs.task_id')
    .select(['certs.id', 'certs.user_id', 'certs.domains'])
    .where('certs.source', '=', 'acme')
    .where('certs.renew_at', '<=', now)
    .where((eb) => eb.or([eb('tasks.state', 'is', null), eb('tasks.state', 'not in', ['queued', 'running'])]))
    .orderBy('certs.renew_at')
    .limit(500)
    .execute();

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

/** The certificates among `ids` the caller may touch, with their latest issuance state. */
export const findCerts = (db: Kysely<Database>, owner: Owner, ids: readonly number[]): Promise<CertWithTask[]> =>
  withTask(db)
    .where('certs.id', 'in', ids)
    .$if(owner.kind === 'user', (qb) => qb.where('certs.user_id', '=', owner.userId))
    .execute();

/** Sites that serve any of the certificates, by certificate: what keeps one from going. */
export const sitesUsingCerts = (db: Kysely<Database>, certIds: readonly number[]) =>
  db
    .selectFrom('sites')
    .select(['cert_id', (eb) => eb.fn.countAll().as('n')])
    .where('cert_id', 'in', certIds)
    .groupBy('cert_id')
    .execute();

export async function deleteCerts(db: Kysely<Database>, ids: readonly number[]) {
  await db.deleteFrom('certs').where('id', 'in', ids).execute();
}
