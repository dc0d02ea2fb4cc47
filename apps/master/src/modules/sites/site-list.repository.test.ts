import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { DIALECTS } from '../../test/databases.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { siteCnameContext } from '../cname/cname.repository.ts';
import { writeSystemConfig } from '../settings/settings.repository.ts';
import { readSetting } from '../settings/settings.service.ts';
import type { Owner } from '../tenancy.ts';
import { insertUser } from '../users/users.repository.ts';
import { domainProofsOf, ensureDomainProofs } from './domain-proofs.repository.ts';
import { proofsOfPage, readSitePage, type SiteFilter, type SiteSort } from './site-list.repository.ts';
import { DEFAULT_SITE_SETTINGS } from './site-rules.ts';
import { insertSite } from './sites.repository.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };

describe.each(DIALECTS)('a page of sites on $dialect', (target) => {
  let test: TestApp;
  let db: Kysely<Database>;
  beforeEach(async () => {
    test = await startTestApp(target);
    db = test.database.db;
  });
  afterEach(async () => {
    await test.close();
  });

  interface Seeded {
    id: number;
    userId: number;
    groupId: number | null;
    domain: string;
    enabled: boolean;
    https: boolean;
    updatedAt: number;
  }

  async function seed() {
    const users: number[] = [];
    for (const username of ['alice', 'bob']) {
      users.push((await insertUser(db, { username, passwordHash: 'x', type: 2, access: [] }, Date.now())).id);
    }
    const groups = new Map<number, number[]>();
    for (const userId of users) {
      const ids: number[] = [];
      for (const name of ['g1', 'g2']) {
        const group = await db
          .insertInto('site_groups')
          .values({ user_id: userId, name, created_at: 0 })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(group.id);
      }
      groups.set(userId, ids);
    }
    const sites: Seeded[] = [];
    for (let i = 0; i < 23; i++) {
      const userId = users[i % 3 === 0 ? 1 : 0] as number;
      const groupId = i % 4 === 0 ? null : ((groups.get(userId) ?? [])[i % 2] ?? null);
      // Domains in another order than the ids, and updates in a third.
      const domain = `${String.fromCharCode(97 + ((i * 7) % 23))}${i}.page.example.com`;
      const enabled = i % 5 !== 0;
      const https = i % 3 === 1;
      const updatedAt = 1_000 + ((i * 11) % 23);
      const row = await insertSite(
        db,
        {
          userId,
          groupId,
          name: domain,
          settings: { ...DEFAULT_SITE_SETTINGS, domains: [domain], origins: [origin], enabled, https_listen: https },
        },
        1,
        updatedAt,
      );
      sites.push({ id: row.id, userId, groupId, domain, enabled, https, updatedAt });
    }
    return { users, groups, sites };
  }

  /** The page as plain code reads it from the seeded sites. */
  function expectedPage(sites: Seeded[], userId: number | undefined, filter: SiteFilter, page: number, limit: number) {
    const sort = filter.sort ?? '-id';
    const key = (site: Seeded) =>
      sort.endsWith('domain') ? site.domain : sort.endsWith('updated_at') ? site.updatedAt : site.id;
    const matching = sites
      .filter(
        (site) =>
          (userId === undefined || site.userId === userId) &&
          (filter.groupId === undefined || site.groupId === filter.groupId) &&
          (filter.enabled === undefined || site.enabled === filter.enabled) &&
          (filter.https === undefined || site.https === filter.https) &&
          filter.certId === undefined,
      )
      .sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        const order = x < y ? -1 : x > y ? 1 : 0;
        return (sort.startsWith('-') ? -order : order) || b.id - a.id;
      });
    return { ids: matching.slice((page - 1) * limit, page * limit).map((site) => site.id), total: matching.length };
  }

  it('reads the rows and the total every filter, sort and owner asks for, one compiled query a shape', async () => {
    const { users, groups, sites } = await seed();
    const [alice, bob] = users as [number, number];
    const owners: [Owner, number | undefined, SiteFilter][] = [
      [{ kind: 'user', userId: alice }, alice, {}],
      // A user's own filter on user_id is no filter: theirs are all they see.
      [{ kind: 'user', userId: bob }, bob, { userId: alice }],
      [{ kind: 'admin', userId: 1 }, undefined, {}],
      [{ kind: 'admin', userId: 1 }, alice, { userId: alice }],
    ];
    const filters: SiteFilter[] = [
      {},
      { enabled: true },
      { enabled: false },
      { https: true, enabled: true },
      { https: false },
      { groupId: groups.get(alice)?.[0] },
      { groupId: groups.get(alice)?.[1], enabled: true },
      { groupId: groups.get(bob)?.[0] },
      { certId: 999 },
    ];
    const sorts: SiteSort[] = ['-id', 'id', 'domain', '-domain', 'updated_at', '-updated_at'];
    for (const [owner, userId, ownerFilter] of owners) {
      for (const filter of filters) {
        for (const sort of sorts) {
          for (const [page, limit] of [
            [1, 5],
            [2, 5],
            [1, 100],
            [30, 5],
          ] as const) {
            const asked = { ...ownerFilter, ...filter, sort };
            const read = await readSitePage(db, owner, asked, page, limit);
            const label = JSON.stringify({ owner, asked, page, limit });
            expect({ ids: read.rows.map((row) => row.id), total: read.total }, label).toEqual(
              expectedPage(sites, userId, asked, page, limit),
            );
            expect(read.capped).toBe(false);
          }
        }
      }
    }
    const [row] = (await readSitePage(db, { kind: 'user', userId: alice }, {}, 1, 1)).rows;
    const stored = sites.find((site) => site.id === row?.id);
    expect(row).toMatchObject({
      user_id: alice,
      group_id: stored?.groupId,
      name: stored?.domain,
      user_account: 'alice',
    });
  });

  it('reads the proofs of a page only when its owners have some, and of long lists in chunks', async () => {
    const { users, sites } = await seed();
    const [alice, bob] = users as [number, number];
    const admin: Owner = { kind: 'admin', userId: 1 };
    const pageOf = (owner: Owner, filter: SiteFilter = {}) => readSitePage(db, owner, filter, 1, 100);
    expect((await pageOf({ kind: 'user', userId: alice })).anyProofs).toBe(false);
    expect((await pageOf(admin)).anyProofs).toBe(false);
    const bobsDomain = sites.find((site) => site.userId === bob && site.enabled)?.domain ?? '';
    await ensureDomainProofs(db, bob, [bobsDomain], 0);
    expect((await pageOf({ kind: 'user', userId: alice })).anyProofs).toBe(false);
    expect(await proofsOfPage(db, await pageOf({ kind: 'user', userId: alice }))).toEqual(new Map());
    for (const page of [await pageOf({ kind: 'user', userId: bob }), await pageOf(admin, { enabled: true })]) {
      expect(page.anyProofs).toBe(true);
      expect([...(await proofsOfPage(db, page)).keys()]).toEqual([`${bob} ${bobsDomain}`]);
    }
    // More domains than one statement reads: every proof of them, each once.
    const many = Array.from({ length: 1100 }, (_, i) => `d${i}.many.example.com`);
    await ensureDomainProofs(db, alice, many, 0);
    const read = await domainProofsOf(db, alice, [...many, 'none.many.example.com']);
    expect(read.map((row) => row.domain).sort()).toEqual([...many].sort());
    expect(await domainProofsOf(db, alice, [])).toEqual([]);
  });

  it('reads the CNAME context and the domain_proof setting as their own modules do', async () => {
    const owner: Owner = { kind: 'admin', userId: 1 };
    const expectContext = async (label: string) => {
      const read = await readSitePage(db, owner, {}, 1, 1);
      expect(read.cname, label).toEqual(await siteCnameContext(db));
      expect(read.domainProofRequired, label).toBe(await readSetting(db, 'domain_proof'));
    };
    const stored = async (single: unknown, tab: unknown) => {
      await db.deleteFrom('configs').where('name', 'in', ['domain_proof', 'domains']).execute();
      if (single !== undefined) await writeSystemConfig(db, 'domain_proof', single, 0);
      if (tab !== undefined) await writeSystemConfig(db, 'domains', tab, 0);
    };
    const states: [unknown, unknown][] = [
      [undefined, undefined],
      [true, undefined],
      [false, undefined],
      ['yes', undefined],
      [null, undefined],
      [undefined, { domain_proof: true }],
      [true, { domain_proof: false }],
      [false, { domain_proof: true }],
      [true, { domain_proof: 'no' }],
      [true, { other: false }],
      [true, [false]],
      [true, null],
      [true, 'false'],
    ];
    for (const [single, tab] of states) {
      await stored(single, tab);
      await expectContext(JSON.stringify({ single, tab }));
    }
    await expectContext('no CNAME domain, no line group');
    await db
      .insertInto('cname_domains')
      .values({ domain: 'b.cname.test', is_default: 0, note: '', created_at: 0 })
      .execute();
    await db
      .insertInto('cname_domains')
      .values({ domain: 'a.cname.test', is_default: 0, note: '', created_at: 0 })
      .execute();
    await db.insertInto('node_groups').values({ name: 'not default', created_at: 0 }).execute();
    await expectContext('the first of two CNAME domains, no default line group');
    await db
      .insertInto('cname_domains')
      .values({ domain: 'c.cname.test', is_default: 1, note: '', created_at: 0 })
      .execute();
    await db.insertInto('node_groups').values({ name: 'default', created_at: 0, is_default: 1 }).execute();
    await expectContext('the default CNAME domain and line group');
  });
});
