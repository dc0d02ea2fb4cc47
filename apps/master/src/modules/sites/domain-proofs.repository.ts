import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { prepared } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import type { DomainProofsTable } from '../../db/schema-domain-proofs.ts';
import { readSetting } from '../settings/settings.service.ts';
import { coveringWildcards } from './site-claims.ts';

export type DomainProofRow = Selectable<DomainProofsTable>;

/** A proof token: random, shown to its owner only. */
export const newProofToken = () => `rampart_${randomBytes(16).toString('hex')}`;

const BATCH = 500;

/** Pending proofs for the user's domains that have none yet; an existing one keeps its token and state. */
export async function ensureDomainProofs(
  db: Kysely<Database>,
  userId: number,
  domains: readonly string[],
  now: number,
) {
  for (let i = 0; i < domains.length; i += BATCH) {
    const values = domains.slice(i, i + BATCH).map((domain) => ({
      user_id: userId,
      domain,
      token: newProofToken(),
      state: 'pending' as const,
      method: '' as const,
      created_at: now,
      last_error: '',
    }));
    await db
      .insertInto('domain_proofs')
      .values(values)
      .onConflict((oc) => oc.columns(['user_id', 'domain']).doNothing())
      .execute();
  }
}

/**
 * Pending proofs for a site's domains when proof is required: whichever call writes the domains (the
 * site calls, batch moves, an import), the owner gets the token to publish and the scheduled check
 * sees them. Not required: nothing is made, and nothing is looked up in DNS.
 */
export async function ensureRequiredDomainProofs(
  db: Kysely<Database>,
  userId: number,
  domains: readonly string[],
  now: number,
) {
  if (await readSetting(db, 'domain_proof')) await ensureDomainProofs(db, userId, domains, now);
}

const proofsOfDomains = (db: Kysely<Database>, userId: number, domains: readonly string[]) =>
  db.selectFrom('domain_proofs').selectAll().where('user_id', '=', userId).where('domain', 'in', domains);

/**
 * The query by the length of its list, compiled once: every list call reads the proofs of its page's
 * domains. Lists go in chunks padded to a power of two (the last domain repeated), so a few shapes
 * serve every list and none binds more values than a statement takes.
 */
const proofsByLength = new Map<number, ReturnType<typeof preparedProofs>>();
const preparedProofs = () => prepared(proofsOfDomains, (userId, domains) => [userId, ...domains]);
const PROOFS_CHUNK = 512;

export async function domainProofsOf(
  db: Kysely<Database>,
  userId: number,
  domains: readonly string[],
): Promise<DomainProofRow[]> {
  const rows: DomainProofRow[] = [];
  for (let start = 0; start < domains.length; start += PROOFS_CHUNK) {
    const chunk = domains.slice(start, start + PROOFS_CHUNK);
    const length = 2 ** Math.ceil(Math.log2(chunk.length));
    let run = proofsByLength.get(length);
    if (run === undefined) {
      run = preparedProofs();
      proofsByLength.set(length, run);
    }
    rows.push(...(await run(db, userId, [...chunk, ...Array<string>(length - chunk.length).fill(chunk.at(-1) ?? '')])));
  }
  return rows;
}

/** The proofs of the owners of these sites for their domains, keyed by `${user_id} ${domain}`. */
export async function domainProofsOfSites(
  db: Kysely<Database>,
  sites: readonly { user_id: number; domains: readonly string[] }[],
) {
  const byUser = new Map<number, Set<string>>();
  for (const site of sites) {
    const domains = byUser.get(site.user_id) ?? new Set<string>();
    for (const domain of site.domains) domains.add(domain);
    byUser.set(site.user_id, domains);
  }
  const proofs = new Map<string, DomainProofRow>();
  for (const [userId, domains] of byUser)
    for (const row of await domainProofsOf(db, userId, [...domains])) proofs.set(`${userId} ${row.domain}`, row);
  return proofs;
}

/**
 * Where another user proved a domain asked for: the name itself, or a wildcard above it. `index`
 * is the domain's place in the list.
 */
export async function provedByOthers(db: Kysely<Database>, userId: number, domains: readonly string[]) {
  const names = new Map<string, number[]>();
  for (const [index, domain] of domains.entries())
    for (const name of [domain, ...coveringWildcards(domain)]) names.set(name, [...(names.get(name) ?? []), index]);
  if (names.size === 0) return [];
  const rows = await db
    .selectFrom('domain_proofs')
    .select('domain')
    .where('domain', 'in', [...names.keys()])
    .where('state', '=', 'proved')
    .where('user_id', '!=', userId)
    .execute();
  return rows
    .flatMap((row) =>
      (names.get(row.domain) ?? []).map((index) => ({ index, domain: domains[index] ?? '', held: row.domain })),
    )
    .sort((a, b) => a.index - b.index);
}

/** A site's domains the edges may serve: all of them, or those listed (none: the site is left out). */
export type ServedDomains = ReadonlyMap<number, true | readonly string[]>;

/** While proof is required, each site's domains the edges may serve (servedSiteDomains); null when it is not. */
export async function provedDomainsToServe(db: Kysely<Database>): Promise<ServedDomains | null> {
  return (await readSetting(db, 'domain_proof')) ? servedSiteDomains(db) : null;
}

/**
 * For each site, whether its owner proved every domain of it (`true`, the usual case, which a
 * snapshot passes on without reading the site's settings) or which ones; a site without a proved
 * domain is absent.
 */
export async function servedSiteDomains(db: Kysely<Database>): Promise<ServedDomains> {
  const rows = await db
    .selectFrom('site_domains')
    .innerJoin('sites', 'sites.id', 'site_domains.site_id')
    .leftJoin('domain_proofs', (join) =>
      join
        .onRef('domain_proofs.user_id', '=', 'sites.user_id')
        .onRef('domain_proofs.domain', '=', 'site_domains.domain')
        .on('domain_proofs.state', '=', 'proved'),
    )
    .select(['site_domains.site_id', 'site_domains.domain', 'domain_proofs.domain as proved'])
    .execute();
  const bySite = new Map<number, { proved: string[]; all: boolean }>();
  for (const row of rows) {
    const site = bySite.get(row.site_id) ?? { proved: [], all: true };
    bySite.set(row.site_id, site);
    if (row.proved === null) site.all = false;
    else site.proved.push(row.domain);
  }
  const served = new Map<number, true | readonly string[]>();
  for (const [siteId, { proved, all }] of bySite) {
    if (all) served.set(siteId, true);
    else if (proved.length > 0) served.set(siteId, proved);
  }
  return served;
}

/**
 * Proof switched on: every domain already on a site stays live, proved as `live` (a pending proof
 * turns proved; a new one gets its token for later).
 */
export async function grandfatherSiteDomains(db: Kysely<Database>, now: number) {
  const held = await db
    .selectFrom('site_domains')
    .innerJoin('sites', 'sites.id', 'site_domains.site_id')
    .select(['sites.user_id', 'site_domains.domain'])
    .execute();
  for (let i = 0; i < held.length; i += BATCH) {
    const values = held.slice(i, i + BATCH).map((row) => ({
      user_id: row.user_id,
      domain: row.domain,
      token: newProofToken(),
      state: 'proved' as const,
      method: 'live' as const,
      created_at: now,
      proved_at: now,
      last_error: '',
    }));
    await db
      .insertInto('domain_proofs')
      .values(values)
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'domain'])
          .doUpdateSet({ state: 'proved', method: 'live', proved_at: now, last_error: '' })
          .where('domain_proofs.state', '=', 'pending'),
      )
      .execute();
  }
}

/** A pending proof to check, with the site that holds the domain (for its CNAME target). */
export interface DueProof {
  user_id: number;
  domain: string;
  token: string;
  site_id: number;
  line_group_id: number | null;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Pending proofs of domains on their owner's sites: all of them (`siteIds` given: those sites'), or
 * those due for the scheduled check: every run for a day after they were asked for, hourly after.
 */
export async function pendingProofs(
  db: Kysely<Database>,
  options: { siteIds?: readonly number[]; dueAt?: number },
): Promise<DueProof[]> {
  const { siteIds, dueAt } = options;
  if (siteIds?.length === 0) return [];
  return db
    .selectFrom('domain_proofs')
    .innerJoin('site_domains', 'site_domains.domain', 'domain_proofs.domain')
    .innerJoin('sites', (join) =>
      join.onRef('sites.id', '=', 'site_domains.site_id').onRef('sites.user_id', '=', 'domain_proofs.user_id'),
    )
    .select([
      'domain_proofs.user_id',
      'domain_proofs.domain',
      'domain_proofs.token',
      'sites.id as site_id',
      'sites.line_group_id',
    ])
    .where('domain_proofs.state', '=', 'pending')
    .$if(siteIds !== undefined, (qb) => qb.where('sites.id', 'in', siteIds ?? []))
    .$if(dueAt !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('domain_proofs.last_checked_at', 'is', null),
          eb('domain_proofs.created_at', '>', (dueAt ?? 0) - DAY_MS),
          eb('domain_proofs.last_checked_at', '<=', (dueAt ?? 0) - 3600 * 1000),
        ]),
      ),
    )
    .orderBy('domain_proofs.created_at')
    .execute() as Promise<DueProof[]>;
}

/** What one check found: proved (and how), or the reason it is not. */
export interface ProofResult {
  user_id: number;
  domain: string;
  method: '' | 'txt' | 'cname';
  reason: string;
}

export async function saveProofResults(db: Kysely<Database>, results: readonly ProofResult[], now: number) {
  for (const result of results) {
    await db
      .updateTable('domain_proofs')
      .set(
        result.method === ''
          ? { last_checked_at: now, last_error: result.reason }
          : { state: 'proved', method: result.method, proved_at: now, last_checked_at: now, last_error: '' },
      )
      .where('user_id', '=', result.user_id)
      .where('domain', '=', result.domain)
      .where('state', '=', 'pending')
      .execute();
  }
}
