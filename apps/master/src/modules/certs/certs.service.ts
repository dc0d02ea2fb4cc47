import type { AcmeChallengeType } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import { CERT_ISSUE } from '../acme/issue-cert.ts';
import { siteServing } from '../acme/site-domains.ts';
import { findDnsApi } from '../dnsapis/dnsapis.repository.ts';
import { providerOf } from '../dnsapis/dnsapis.service.ts';
import { zoneOf } from '../dnsapis/providers.ts';
import { wakeRunners } from '../tasks/task-runner.ts';
import { activeTaskFor, insertTask } from '../tasks/tasks.repository.ts';
import type { Owner } from '../tenancy.ts';
import {
  type AcmeRequest,
  deleteCerts,
  findCerts,
  insertAcmeCert,
  setAcmeRequest,
  setCertTask,
  sitesUsingCerts,
} from './certs.repository.ts';

export interface AcmeFields {
  domains: string[];
  challenge: AcmeChallengeType;
  dnsapi_id?: number | undefined;
}

/**
 * The rules of an ACME request for `userId`'s certificate: HTTP-01 only for the user's own sites'
 * domains and never a wildcard; DNS-01 through the user's own DNS API, whose zones hold every domain.
 */
export async function checkAcmeRequest(
  db: Kysely<Database>,
  secrets: SecretBox,
  owner: Owner,
  userId: number,
  fields: AcmeFields,
): Promise<AcmeRequest> {
  const domains = [...new Set(fields.domains)];
  if (fields.challenge === 'http-01') {
    if (fields.dnsapi_id !== undefined) throw invalidParam('dnsapi_id', 'is only for the dns-01 challenge');
    for (const [index, domain] of domains.entries()) {
      if (domain.startsWith('*.'))
        throw invalidParam(`domains/${index}`, `${domain}: a wildcard needs the dns-01 challenge`);
      if ((await siteServing(db, userId, domain)) === undefined) {
        throw invalidParam(
          `domains/${index}`,
          `${domain} is not a domain of any of your sites (http-01 is answered by the edges)`,
        );
      }
    }
    return { domains, challenge: 'http-01', dnsapiId: null };
  }
  if (fields.dnsapi_id === undefined) throw invalidParam('dnsapi_id', 'is required for the dns-01 challenge');
  const dnsApi = await findDnsApi(db, owner, fields.dnsapi_id);
  if (!dnsApi || dnsApi.user_id !== userId) {
    throw invalidParam('dnsapi_id', `DNS API ${fields.dnsapi_id} does not exist`);
  }
  const zones = await (await providerOf(db, secrets, dnsApi)).listZones();
  for (const [index, domain] of domains.entries()) {
    if (!zoneOf(domain, zones))
      throw invalidParam(`domains/${index}`, `no zone of the DNS API "${dnsApi.name}" holds ${domain}`);
  }
  return { domains, challenge: 'dns-01', dnsapiId: dnsApi.id };
}

/** Two issuances never touch the same name at once; a wildcard shares its record name with its base. */
const lockKeys = (domains: readonly string[]) => [...new Set(domains.map((domain) => domain.replace(/^\*\./, '')))];

async function queueIssue(db: Kysely<Database>, cert: { id: number; userId: number }, domains: readonly string[]) {
  const taskId = await insertTask(
    db,
    { kind: CERT_ISSUE, userId: cert.userId, targetId: cert.id, lockKeys: lockKeys(domains) },
    Date.now(),
  );
  await setCertTask(db, cert.id, taskId);
}

/** A new ACME certificate, its issuance queued; the call returns at once. */
export async function requestAcmeCert(db: Kysely<Database>, userId: number, name: string, request: AcmeRequest) {
  const id = await db.transaction().execute(async (trx) => {
    const { id } = await insertAcmeCert(trx, userId, name, request, Date.now());
    await queueIssue(trx, { id, userId }, request.domains);
    return id;
  });
  wakeRunners();
  return id;
}

/** Issues an ACME certificate again (with a changed request if given); refused while one runs. */
export async function reissueAcmeCert(
  db: Kysely<Database>,
  cert: { id: number; user_id: number },
  request: AcmeRequest,
  changed: boolean,
) {
  if (await activeTaskFor(db, CERT_ISSUE, cert.id)) {
    throw new AppError('conflict', 'an issuance of this certificate is already queued or running');
  }
  await db.transaction().execute(async (trx) => {
    if (changed) await setAcmeRequest(trx, cert.id, request, Date.now());
    await queueIssue(trx, { id: cert.id, userId: cert.user_id }, request.domains);
  });
  wakeRunners();
}

/** Requeues ACME certificates that are due; returns their ids. The renewal timer calls this; so can tests. */
export async function queueRenewals(
  db: Kysely<Database>,
  due: readonly { id: number; user_id: number; domains: string }[],
): Promise<number[]> {
  const queued: number[] = [];
  for (const cert of due) {
    if (await activeTaskFor(db, CERT_ISSUE, cert.id)) continue;
    await db
      .transaction()
      .execute((trx) => queueIssue(trx, { id: cert.id, userId: cert.user_id }, JSON.parse(cert.domains) as string[]));
    queued.push(cert.id);
  }
  if (queued.length > 0) wakeRunners();
  return queued;
}

export type CertBatchAction = 'delete';

/** Batch PUT: every listed certificate must be the caller's and free to go; all of them go or none. */
export async function batchCerts(db: Kysely<Database>, owner: Owner, ids: readonly number[], action: CertBatchAction) {
  const rows = await findCerts(db, owner, ids);
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) throw new AppError('not_found', `ids: certificate ${missing.join(', ')} does not exist`);
  const label = (id: number) => `${id} (${rows.find((row) => row.id === id)?.name ?? ''})`;
  const issuing = rows.filter((row) => row.task_state === 'queued' || row.task_state === 'running');
  if (issuing.length > 0) {
    const names = issuing.map((row) => label(row.id)).join(', ');
    throw new AppError('conflict', `ids: certificate ${names} is being issued; ${action} it when that has finished`);
  }
  await db.transaction().execute(async (trx) => {
    // Checked inside the transaction, so that a site cannot take a certificate up in between.
    const used = await sitesUsingCerts(trx, ids);
    if (used.length > 0) {
      const names = used.map((row) => `${label(row.cert_id ?? 0)} is used by ${Number(row.n)} site(s)`).join(', ');
      throw new AppError('conflict', `ids: certificate ${names}; change those sites first`);
    }
    await deleteCerts(trx, ids);
  });
}
