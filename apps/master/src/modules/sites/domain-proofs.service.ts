import { Resolver } from 'node:dns/promises';
import { type DomainProof, domainProofRecord, type Site } from '@rampart/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { cnameTarget, defaultCnameDomain } from '../cname/cname.repository.ts';
import { checkCnames } from '../cname/cname-check.ts';
import { changeConfig } from '../config/config-version.ts';
import { readSetting } from '../settings/settings.service.ts';
import {
  type DomainProofRow,
  type DueProof,
  domainProofsOfSites,
  ensureDomainProofs,
  type ProofResult,
  pendingProofs,
  saveProofResults,
} from './domain-proofs.repository.ts';

/** What the start of a reason says, as a code for the dashboard's own words (txtReason's texts). */
export function reasonCode(reason: string): DomainProof['reason_code'] {
  if (!reason) return '';
  if (reason.startsWith('no TXT record')) return 'no_record';
  if (reason.startsWith('the TXT record')) return 'wrong_token';
  return 'dns_failed';
}

const TXT_REASONS: Record<string, string> = {
  ETIMEOUT: 'the DNS server did not answer',
  ECONNREFUSED: 'the DNS server refused the query',
  ESERVFAIL: 'the DNS server failed to answer',
};

/** Whether the TXT record of the domain holds the token; why not otherwise. */
async function txtReason(resolver: Resolver, domain: string, token: string): Promise<string> {
  const name = domainProofRecord(domain);
  try {
    const records = await resolver.resolveTxt(name);
    // A long TXT value arrives in chunks of 255 characters: a record is their concatenation.
    if (records.some((chunks) => chunks.join('') === token)) return '';
    return `the TXT record ${name} does not hold the token`;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'ENODATA' || code === 'ENOTFOUND') return `no TXT record ${name}`;
    return TXT_REASONS[code] ?? `${name} could not be resolved (${code || 'error'})`;
  }
}

/**
 * Asks DNS (the configured server, else the system's) whether each pending domain is proved: the
 * TXT record holds its owner's token, or the domain's CNAME points at its site's target. Proofs found
 * change what the edges serve while proof is required, so they are saved with a config version.
 */
export async function checkDomainProofs(db: Kysely<Database>, due: readonly DueProof[]): Promise<ProofResult[]> {
  if (due.length === 0) return [];
  const [server, cnameDomain, required] = await Promise.all([
    readSetting(db, 'dns_resolver'),
    defaultCnameDomain(db),
    readSetting(db, 'domain_proof'),
  ]);
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (server) resolver.setServers([server]);
  const results = await Promise.all(
    due.map(async (proof): Promise<ProofResult> => {
      const base = { user_id: proof.user_id, domain: proof.domain };
      const txt = await txtReason(resolver, proof.domain, proof.token);
      if (!txt) return { ...base, method: 'txt', reason: '' };
      const target = cnameTarget(proof.site_id, cnameDomain);
      if (!target) return { ...base, method: '', reason: txt };
      const [cname] = await checkCnames([proof.domain], target, server);
      if (cname?.points) return { ...base, method: 'cname', reason: '' };
      return { ...base, method: '', reason: `${txt}; nor a CNAME to ${target} (${cname?.reason ?? 'not checked'})` };
    }),
  );
  const now = Date.now();
  if (required && results.some((result) => result.method !== ''))
    await changeConfig(db, (trx) => saveProofResults(trx, results, now));
  else await saveProofResults(db, results, now);
  return results;
}

/** Checks the pending domains of these sites now. */
export const checkSiteDomainProofs = async (db: Kysely<Database>, siteIds: readonly number[]) =>
  checkDomainProofs(db, await pendingProofs(db, { siteIds }));

const inFlight = new Set<Promise<unknown>>();

/**
 * A site's domains were saved: each gets its proof (pending until checked; the token stays for good)
 * and a check starts at once without holding up the request.
 */
export async function startDomainProofs(
  db: Kysely<Database>,
  log: FastifyBaseLogger,
  site: { id: number; user_id: number; domains: readonly string[] },
) {
  // Not required: nothing waits for proof, and nothing is looked up (a check asked for makes the proofs).
  if (!(await readSetting(db, 'domain_proof'))) return;
  await ensureDomainProofs(db, site.user_id, site.domains, Date.now());
  const check = checkSiteDomainProofs(db, [site.id]).catch((error: unknown) =>
    log.warn({ err: error, site: site.id }, 'could not check the proofs of a site'),
  );
  inFlight.add(check);
  void check.finally(() => inFlight.delete(check));
}

/** Waits for the checks started here (before the database closes). */
export const settleDomainProofChecks = async () => void (await Promise.all([...inFlight]));

/** Each domain of a site with its proof; the token only for the site's owner. */
export function presentDomainProofs(
  site: { user_id: number; domains: readonly string[] },
  proofs: ReadonlyMap<string, DomainProofRow>,
  viewerId: number,
): DomainProof[] {
  const iso = (time: number | null) => (time === null ? null : new Date(Number(time)).toISOString());
  return site.domains.map((domain) => {
    const row = proofs.get(`${site.user_id} ${domain}`);
    return {
      domain,
      state: row?.state ?? 'pending',
      method: row?.method ?? '',
      record_name: domainProofRecord(domain),
      token: row && viewerId === site.user_id ? row.token : '',
      reason: row?.last_error ?? '',
      reason_code: reasonCode(row?.last_error ?? ''),
      checked_at: iso(row?.last_checked_at ?? null),
      proved_at: iso(row?.proved_at ?? null),
    };
  });
}

/** Sites as answered: whether proof is required and each domain's proof. */
export async function withDomainProofs<T extends Site>(
  db: Kysely<Database>,
  sites: T[],
  viewerId: number,
): Promise<T[]> {
  const required = await readSetting(db, 'domain_proof');
  const proofs = await domainProofsOfSites(db, sites);
  return sites.map((site) => ({
    ...site,
    domain_proof_required: required,
    domain_proofs: presentDomainProofs(site, proofs, viewerId),
  }));
}
