import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backfillSiteGrams } from '../../db/migrations/2026-11-22T1000-site-search.ts';
import type { Database } from '../../db/schema.ts';
import { DIALECTS } from '../../test/databases.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { changeConfig } from '../config/config-version.ts';
import type { Owner } from '../tenancy.ts';
import { insertUser } from '../users/users.repository.ts';
import { listSites } from './site-list.repository.ts';
import { DEFAULT_SITE_SETTINGS } from './site-rules.ts';
import { type DomainSearch, matchesDomain, POSTING_CAPS, planDomainSearch } from './site-search.repository.ts';
import { siteGrams } from './site-search.ts';
import { insertSite } from './sites.repository.ts';
import { batchSites, createSite, editSite } from './sites.service.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]) => items[int(items.length)] as T;
  const text = (alphabet: string, length: number) =>
    Array.from({ length }, () => alphabet[int(alphabet.length)] ?? '').join('');
  return { int, pick, text };
}

interface SeededSite {
  id: number;
  userId: number;
  domains: string[];
}

/** A narrow alphabet, so grams repeat across many sites and intersections matter. */
async function seedRandomSites(db: Kysely<Database>, userIds: readonly number[], count: number, seed: number) {
  const rng = random(seed);
  const label = () => rng.text('ab1', 1 + rng.int(5));
  const used = new Set<string>();
  const sites: SeededSite[] = [];
  await changeConfig(db, async (trx, version) => {
    for (let i = 0; i < count; i++) {
      const domains: string[] = [];
      for (let d = 0, n = 1 + rng.int(3); d < n; d++) {
        const domain = `${rng.int(4) === 0 ? '*.' : ''}${label()}.${label()}.${rng.pick(['com', 'io', 'ab'])}`;
        if (!used.has(domain)) domains.push(domain);
        used.add(domain);
      }
      if (domains.length === 0) continue;
      const userId = rng.pick(userIds);
      const settings = { ...DEFAULT_SITE_SETTINGS, domains, origins: [origin] };
      const row = await insertSite(trx, { userId, groupId: null, name: domains[0] ?? '', settings }, version, 0);
      sites.push({ id: row.id, userId, domains });
    }
  });
  return { sites, rng };
}

/** Terms: pieces of stored domains (some uppercased), random strings, and LIKE wildcards. */
function randomTerms(rng: ReturnType<typeof random>, sites: readonly SeededSite[], count: number) {
  const terms = ['', 'a', 'ab', '.', '%', '_', 'a%b', 'a_b', '\\', 'zzz', 'B1.A', '.com', '*.'];
  while (terms.length < count) {
    const domain = rng.pick(rng.pick(sites).domains);
    const start = rng.int(domain.length);
    const piece = domain.slice(start, start + 1 + rng.int(9));
    terms.push(rng.int(5) === 0 ? piece.toUpperCase() : piece, rng.text('ab1.', 3 + rng.int(4)));
  }
  return terms;
}

/** The plain substring filter the index must agree with. */
const plainMatches = (sites: readonly SeededSite[], term: string, userId?: number) =>
  sites
    .filter((site) => userId === undefined || site.userId === userId)
    .filter((site) => site.domains.some((domain) => domain.includes(term.toLowerCase())))
    .map((site) => site.id)
    .sort((a, b) => a - b);

/** What site_grams holds, and what it should hold given site_domains. */
async function postings(db: Kysely<Database>) {
  const rows = await db.selectFrom('site_grams').select(['gram', 'site_id']).execute();
  return rows.map((row) => `${row.site_id} ${row.gram}`).sort();
}
async function expectedPostings(db: Kysely<Database>) {
  const rows = await db.selectFrom('site_domains').select(['domain', 'site_id']).execute();
  const bySite = new Map<number, string[]>();
  for (const row of rows) bySite.set(row.site_id, [...(bySite.get(row.site_id) ?? []), row.domain]);
  return [...bySite].flatMap(([siteId, domains]) => siteGrams(domains).map((gram) => `${siteId} ${gram}`)).sort();
}

describe.each(DIALECTS)('site domain search on $dialect', (target) => {
  let test: TestApp;
  let db: Kysely<Database>;
  let alice: number;
  let bob: number;
  beforeEach(async () => {
    test = await startTestApp(target);
    db = test.database.db;
    const user = async (username: string) =>
      (await insertUser(db, { username, passwordHash: 'x', type: 2, access: [] }, Date.now())).id;
    alice = await user('alice');
    bob = await user('bob');
  });
  afterEach(async () => {
    await test.close();
  });

  it('lists exactly the sites a plain substring filter finds, on random domains', async () => {
    const { sites, rng } = await seedRandomSites(db, [alice, bob], 250, 7);
    const owners: [Owner, number | undefined][] = [
      [{ kind: 'user', userId: alice }, alice],
      [{ kind: 'admin', userId: 1 }, undefined],
    ];
    for (const term of randomTerms(rng, sites, 120)) {
      for (const [owner, userId] of owners) {
        const page = await listSites(db, owner, { domain: term, sort: 'id' }, 1, 1000);
        const expected = plainMatches(sites, term, userId);
        expect(
          page.list.map((site) => site.id),
          `"${term}"`,
        ).toEqual(expected);
        expect(page.total, `"${term}"`).toBe(expected.length);
      }
    }
  });

  it('stops counting the matches of a broad search at the cap, and says so', async () => {
    const { sites, rng } = await seedRandomSites(db, [alice], 120, 13);
    const owner: Owner = { kind: 'user', userId: alice };
    let capped = 0;
    for (const term of [...randomTerms(rng, sites, 40), '.']) {
      const expected = plainMatches(sites, term, alice);
      const page = await listSites(db, owner, { domain: term, sort: 'id' }, 1, 5, 10);
      expect(
        page.list.map((site) => site.id),
        `"${term}"`,
      ).toEqual(expected.slice(0, 5));
      // An empty term is no domain filter at all: exact.
      if (term !== '' && expected.length > 10) {
        expect(page, `"${term}"`).toMatchObject({ total: 10, total_capped: true });
        capped++;
      } else expect(page, `"${term}"`).toEqual({ list: expect.any(Array), total: expected.length });
    }
    expect(capped).toBeGreaterThan(0);
    // Without a domain search the total is exact, however large.
    const all = await listSites(db, owner, {}, 1, 5, 10);
    expect(all).toEqual({ list: expect.any(Array), total: sites.filter((site) => site.userId === alice).length });
  });

  it('finds the same sites whether it probes postings, counts twice or reads every domain', async () => {
    const { sites, rng } = await seedRandomSites(db, [alice], 120, 11);
    const ids = async (search: DomainSearch) =>
      (await db.selectFrom('sites').select('id').where(matchesDomain(search)).orderBy('id').execute()).map(
        (row) => row.id,
      );
    const plans = new Set<string>();
    for (const term of randomTerms(rng, sites, 60)) {
      const expected = plainMatches(sites, term);
      const scan = await planDomainSearch(db, term, { rare: 0, common: 0 });
      expect(scan.grams).toEqual([]);
      expect(await ids(scan), `"${term}"`).toEqual(expected);
      for (const caps of [POSTING_CAPS, { rare: 2, common: 30 }, { rare: 1, common: 1000 }]) {
        const search = await planDomainSearch(db, term, caps);
        if (term.length >= 3) plans.add(`${caps.common}: ${search.grams.length > 0 ? 'grams' : 'scan'}`);
        expect(await ids(search), `"${term}" ${JSON.stringify(caps)}`).toEqual(expected);
      }
    }
    // With a cap of 30 postings, the common terms read every domain and the rare ones probe postings.
    expect(plans).toContain('30: grams');
    expect(plans).toContain('30: scan');
  });

  it('reads the rarest gram’s postings first', async () => {
    await seedRandomSites(db, [alice], 60, 3);
    const search = await planDomainSearch(db, 'zq.com');
    expect(search.grams.slice(0, 2).sort()).toEqual(['q.c', 'zq.']);
  });

  it('keeps the postings right through edits, batch moves, disables, deletes and user deletion', async () => {
    const aliceOwner: Owner = { kind: 'user', userId: alice };
    const found = async (term: string) =>
      (await listSites(db, aliceOwner, { domain: term }, 1, 100)).list.map((site) => site.domains);
    const shop = await createSite(db, alice, { domains: ['shop.alpha.com', 'www.alpha.com'], origins: [origin] });
    const blog = await createSite(db, alice, { domains: ['blog.beta.io'], origins: [origin] });
    await createSite(db, bob, { domains: ['bob.gamma.net'], origins: [origin] });
    expect(await postings(db)).toEqual(await expectedPostings(db));
    expect(await found('alpha')).toEqual([['shop.alpha.com', 'www.alpha.com']]);

    await editSite(db, aliceOwner, shop.id, { domains: ['store.delta.com'] });
    expect(await postings(db)).toEqual(await expectedPostings(db));
    expect(await found('alpha')).toEqual([]);
    expect(await found('DELTA')).toEqual([['store.delta.com']]);

    const group = await db
      .insertInto('site_groups')
      .values({ user_id: alice, name: 'moved', created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await batchSites(db, aliceOwner, [shop.id, blog.id], 'move', group.id);
    await batchSites(db, aliceOwner, [blog.id], 'disable', undefined);
    expect(await postings(db)).toEqual(await expectedPostings(db));
    expect(await found('beta.i')).toEqual([['blog.beta.io']]);

    await batchSites(db, aliceOwner, [blog.id], 'delete', undefined);
    expect(await postings(db)).toEqual(await expectedPostings(db));
    expect(await found('beta')).toEqual([]);

    await db.deleteFrom('users').where('id', '=', bob).execute();
    expect(await postings(db)).toEqual(await expectedPostings(db));
    expect(await db.selectFrom('site_grams').select('gram').where('gram', '=', 'gam').execute()).toEqual([]);
  });

  it('backfills in the migration the same postings that site writes keep', async () => {
    await seedRandomSites(db, [alice, bob], 80, 5);
    const written = await postings(db);
    expect(written).toEqual(await expectedPostings(db));
    await db.deleteFrom('site_grams').execute();
    await backfillSiteGrams(db as unknown as Kysely<unknown>);
    expect(await postings(db)).toEqual(written);
  });
});
