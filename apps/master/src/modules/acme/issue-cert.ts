import { crypto as acmeCrypto, Client } from 'acme-client';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SecretBox } from '../../secrets.ts';
import { parseCertificate } from '../certs/cert-validation.ts';
import { type CertRow, findCertById, setRenewAt, storeIssuedCert } from '../certs/certs.repository.ts';
import { changeConfig } from '../config/config-version.ts';
import { loadSettings } from '../settings/settings.service.ts';
import { type TaskContext, TaskFailure, type TaskHandler } from '../tasks/task-runner.ts';
import { accountFor, saveAccountUrl } from './acme-accounts.repository.ts';
import { acmeStep, plainDetail } from './acme-errors.ts';
import { publishDnsChallenges } from './dns01.ts';
import { checkDomainsReachEdges, publishHttpChallenges } from './http01.ts';

export const CERT_ISSUE = 'cert-issue';

type AcmeCertRow = CertRow & { challenge: string };
const DAY_MS = 86_400_000;
export interface IssueDeps {
  db: Kysely<Database>;
  secrets: SecretBox;
}

type AcmeAuthorization = Awaited<ReturnType<Client['getAuthorizations']>>[number];
type AcmeChallenge = AcmeAuthorization['challenges'][number];

interface Pending {
  domain: string;
  challenge: AcmeChallenge;
  keyAuthorization: string;
}

/**
 * Issues (or renews) one ACME certificate: account, order, challenge published through the edges
 * (HTTP-01) or a DNS API (DNS-01), validation by the ACME server, finalization with a fresh key,
 * and the certificate stored as a config change so edges serve it. Each step reports progress;
 * every failure is put in plain words.
 */
export const certIssueHandler =
  ({ db, secrets }: IssueDeps): TaskHandler =>
  async (context) => {
    const { task } = context;
    const cert = task.target_id === null ? undefined : await findCertById(db, task.target_id);
    if (cert?.source !== 'acme' || cert.challenge === null) {
      throw new TaskFailure('the certificate was deleted or is not an ACME certificate');
    }
    try {
      await issue(db, secrets, context, cert as AcmeCertRow);
    } catch (error) {
      // A certificate that still serves retries its renewal a day later; the error stays on the page.
      if (cert.cert_pem) await setRenewAt(db, cert.id, Date.now() + DAY_MS);
      throw error;
    }
  };

async function issue(
  db: Kysely<Database>,
  secrets: SecretBox,
  { task, progress, signal }: TaskContext,
  cert: AcmeCertRow,
) {
  const settings = await loadSettings(db);
  const domains = JSON.parse(cert.domains) as string[];
  const directory = settings.acme_directory_url;

  await progress('account');
  const account = await accountFor(db, secrets, directory);
  const client = new Client({
    directoryUrl: directory,
    accountKey: account.key,
    ...(account.url && { accountUrl: account.url }),
    backoffAttempts: 10,
    backoffMin: 1000,
    backoffMax: 10_000,
  });
  if (!account.url) {
    await acmeStep(`the ACME server ${directory} refused the account`, () =>
      client.createAccount({
        termsOfServiceAgreed: true,
        ...(settings.acme_email && { contact: [`mailto:${settings.acme_email}`] }),
      }),
    );
    await saveAccountUrl(db, directory, client.getAccountUrl());
  }

  await progress('order');
  if (cert.challenge === 'http-01') await checkDomainsReachEdges(db, cert.user_id, domains, settings.dns_resolver);
  const order = await acmeStep('the ACME server refused the order', () =>
    client.createOrder({ identifiers: domains.map((value) => ({ type: 'dns', value })) }),
  );
  const authorizations = await acmeStep('the ACME server did not hand out the authorizations', () =>
    client.getAuthorizations(order),
  );
  const pending: Pending[] = [];
  for (const authz of authorizations.filter((entry) => entry.status !== 'valid')) {
    const domain = `${authz.wildcard ? '*.' : ''}${authz.identifier.value}`;
    const challenge = authz.challenges.find((entry) => entry.type === cert.challenge);
    if (!challenge) throw new TaskFailure(`the ACME server offers no ${cert.challenge} challenge for ${domain}`);
    pending.push({ domain, challenge, keyAuthorization: await client.getChallengeKeyAuthorization(challenge) });
  }

  await progress('challenge');
  const unpublish =
    pending.length === 0
      ? async () => undefined
      : cert.challenge === 'http-01'
        ? await publishHttpChallenges(
            db,
            task.id,
            pending.map((entry) => ({ token: entry.challenge.token, key_authorization: entry.keyAuthorization })),
            settings.acme_edge_wait_seconds,
            signal,
          )
        : await publishDnsChallenges(
            db,
            secrets,
            cert,
            pending.map((entry) => ({ domain: entry.domain, value: entry.keyAuthorization })),
            settings,
            signal,
          );
  try {
    await progress('validating');
    for (const entry of pending) {
      await acmeStep(`the ACME server did not take the ${cert.challenge} answer for ${entry.domain}`, () =>
        client.completeChallenge(entry.challenge),
      );
    }
    for (const entry of pending) {
      try {
        await client.waitForValidStatus(entry.challenge);
      } catch (error) {
        throw new TaskFailure(
          `the ACME server could not validate ${entry.domain} (${cert.challenge}): ${plainDetail(error)}`,
        );
      }
    }
  } finally {
    await unpublish().catch(() => undefined);
  }

  await progress('finalizing');
  // A fresh key for every issuance; the common name is optional and limited to 64 characters.
  const [first = ''] = domains;
  const [key, csr] = await acmeCrypto.createCsr(
    { altNames: domains, ...(first.length <= 64 && { commonName: first }) },
    await acmeCrypto.createPrivateEcdsaKey('P-256'),
  );
  const finalized = await acmeStep('the ACME server did not issue the certificate', () =>
    client.finalizeOrder(order, csr),
  );
  const pem = await acmeStep('the ACME server did not hand over the certificate', () =>
    client.getCertificate(finalized),
  );
  const parsed = parseCertificate(pem, key.toString());
  await changeConfig(db, (trx) =>
    storeIssuedCert(trx, cert.id, parsed, parsed.notAfter - settings.acme_renew_days * DAY_MS, Date.now()),
  );
  await progress('stored');
}
