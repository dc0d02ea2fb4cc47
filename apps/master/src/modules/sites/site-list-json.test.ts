import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Envelope, ListResult, Site } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { ok } from '../../plugins/envelope.ts';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';
import type { Owner } from '../tenancy.ts';
import { ensureDomainProofs, saveProofResults } from './domain-proofs.repository.ts';
import { withDomainProofs } from './domain-proofs.service.ts';
import { listSites, type SiteFilter } from './site-list.repository.ts';
import { isoTime, siteListJson } from './site-list-json.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };
/** The route's response schema, compiled as the app compiles it (plugins/schema-compilers.ts). */
const schemaSerializer = SerializerSelector()({}, undefined)({
  schema: Envelope(ListResult(Site)),
  method: 'GET',
  url: '/v1/sites',
  httpStatus: '200',
}) as (answer: unknown) => string;

describe.each(DIALECTS)('the site list’s answer on $dialect', (target) => {
  let test: TestApp;
  let db: Kysely<Database>;
  let admin: string;
  let alice: string;
  let aliceId: number;
  beforeEach(async () => {
    test = await startTestApp(target);
    db = test.database.db;
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    aliceId = (await db.selectFrom('users').select('id').where('username', '=', 'alice').executeTakeFirstOrThrow()).id;
  });
  afterEach(async () => {
    await test.close();
  });

  const create = async (body: Record<string, unknown>) => {
    const created = await test.call('POST', '/v1/sites', { token: alice, body: { origins: [origin], ...body } });
    expect(created.body.msg).toBe('ok');
    return (created.body.data as { id: number }).id;
  };

  /** What the route answered before it wrote its own JSON: presented sites, their proofs, the schema's serializer. */
  async function schemaAnswer(owner: Owner, viewerId: number, filter: SiteFilter, page: number, limit: number) {
    const found = await listSites(db, owner, filter, page, limit);
    return schemaSerializer(ok({ ...found, list: await withDomainProofs(db, found.list, viewerId) }));
  }

  async function expectSameAnswers(token: string, owner: Owner, viewerId: number) {
    const queries: [string, SiteFilter, number, number][] = [
      ['page=1&limit=20', {}, 1, 20],
      ['page=2&limit=2&sort=domain', { sort: 'domain' }, 2, 2],
      ['page=9&limit=20', {}, 9, 20],
      ['page=1&limit=20&enabled=false', { enabled: false }, 1, 20],
      ['page=1&limit=20&https=false&sort=-updated_at', { https: false, sort: '-updated_at' }, 1, 20],
      ['page=1&limit=20&domain=LIST.exa', { domain: 'LIST.exa' }, 1, 20],
    ];
    for (const [query, filter, page, limit] of queries) {
      const answer = await test.app.inject({
        method: 'GET',
        url: `/v1/sites?${query}`,
        headers: { 'access-token': token },
      });
      expect(answer.headers['content-type'], query).toBe('application/json; charset=utf-8');
      expect(answer.body, query).toBe(await schemaAnswer(owner, viewerId, filter, page, limit));
    }
  }

  it('is, byte for byte, what the response schema writes for the same sites, whatever their settings', async () => {
    const plain = await create({ domains: ['plain.list.example.com'], name: 'ünïcode ✓ name' });
    // Text the API would refuse, stored all the same (an older master, an import): escaped as the schema escapes it.
    await db
      .updateTable('sites')
      .set({ name: 'a "quoted" \\ </script> \u2028 \u0001 name' })
      .where('id', '=', plain)
      .execute();
    const rich = await create({
      domains: ['rich.list.example.com', 'www.rich.list.example.com', '*.img.list.example.com'],
      origins: [origin, { address: '10.0.0.2', port: 443, weight: 7, backup: true }],
      request_headers: [{ name: 'X-Origin', value: 'list-1' }],
      cache_rules: [{ match: 'extension', value: 'png', ttl: 60, ignore_query: true, honor_origin: false }],
      hotlink: {
        enabled: true,
        allow: ['ok.example.com'],
        deny: [],
        allow_empty: false,
        extensions: ['png'],
        action: 'forbid',
        redirect_url: '',
      },
      error_pages: { '404': '<html><body>"gone" ✓</body></html>' },
      enabled: false,
    });
    const legacy = await create({ domains: ['legacy.list.example.com'] });
    // A site saved before protection and the later parts existed, with a field no schema knows: the
    // defaults show, the unknown field does not.
    const stored = JSON.parse(
      (await db.selectFrom('sites').select('settings').where('id', '=', legacy).executeTakeFirstOrThrow()).settings,
    ) as Record<string, unknown>;
    for (const part of ['protection', 'hotlink', 'error_pages', 'url_auth', 'redirects', 'health_check'])
      delete stored[part];
    await db
      .updateTable('sites')
      .set({
        settings: JSON.stringify({
          ...stored,
          retired_field: 1,
          request_headers: [{ name: 'X-Quote', value: 'say "hi" – ✓' }],
          origins: [{ address: '10.0.0.3', port: 80 }],
        }),
      })
      .where('id', '=', legacy)
      .execute();
    const aliceOwner: Owner = { kind: 'user', userId: aliceId };
    await expectSameAnswers(alice, aliceOwner, aliceId);
    // Proofs: one proved, one pending with a reason, and the setting on.
    await ensureDomainProofs(db, aliceId, ['rich.list.example.com', 'www.rich.list.example.com'], 1_000);
    await saveProofResults(
      db,
      [
        { user_id: aliceId, domain: 'rich.list.example.com', method: 'txt', reason: '' },
        { user_id: aliceId, domain: 'www.rich.list.example.com', method: '', reason: 'no TXT record x' },
      ],
      2_000,
    );
    await saveSetting(db, 'domain_proof', true);
    const adminId = (
      await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
    ).id;
    await expectSameAnswers(alice, aliceOwner, aliceId);
    await expectSameAnswers(admin, { kind: 'admin', userId: adminId }, adminId);
    expect(rich).toBeGreaterThan(0);

    // The CNAME targets: no CNAME domain, a domain without a default line group, then with one (a site
    // with a line group of its own is ready either way).
    const group = await db
      .insertInto('node_groups')
      .values({ name: 'own', created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('sites').set({ line_group_id: group.id }).where('id', '=', rich).execute();
    await db
      .insertInto('cname_domains')
      .values({ domain: 'second.cname.test', is_default: 0, note: '', created_at: 0 })
      .execute();
    await expectSameAnswers(alice, aliceOwner, aliceId);
    await db
      .insertInto('cname_domains')
      .values({ domain: 'chosen.cname.test', is_default: 1, note: '', created_at: 0 })
      .execute();
    await db.insertInto('node_groups').values({ name: 'default', created_at: 0, is_default: 1 }).execute();
    await expectSameAnswers(alice, aliceOwner, aliceId);
    // And a page written before shows what changed since, whichever part of a row it is.
    await db.updateTable('sites').set({ name: 'renamed' }).where('id', '=', rich).execute();
    await expectSameAnswers(alice, aliceOwner, aliceId);
    await db.updateTable('users').set({ username: 'alice2' }).where('id', '=', aliceId).execute();
    await expectSameAnswers(admin, { kind: 'admin', userId: adminId }, adminId);
  });

  it('says when a search stopped counting, as the schema writes it', async () => {
    await create({ domains: ['one.capped.example.com'] });
    const found = await listSites(db, { kind: 'user', userId: aliceId }, { domain: 'capped' }, 1, 20, 0);
    expect(found).toMatchObject({ total: 0, total_capped: true });
    const page = {
      rows: await db
        .selectFrom('sites')
        .leftJoin('users', 'users.id', 'sites.user_id')
        .select(['sites.id', 'sites.user_id', 'sites.group_id', 'sites.line_group_id', 'sites.name', 'sites.settings'])
        .select(['sites.created_at', 'sites.updated_at', 'users.username as user_account'])
        .execute(),
      total: 0,
      capped: true,
      cname: { domain: '', defaultLineGroup: false },
      domainProofRequired: false,
      anyProofs: false,
    };
    expect(siteListJson(page, new Map(), aliceId)).toBe(
      schemaSerializer(ok({ ...found, list: await withDomainProofs(db, found.list, aliceId) })),
    );
  });
});

describe('the list’s ISO times', () => {
  it('are what toISOString writes, from 1970 to past 9999 and for times it leaves to it', () => {
    const times = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 1_795_925_705_854, 253_402_300_799_999];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 48_271) % 2_147_483_647;
      times.push(Math.floor((seed / 2_147_483_647) * 4_102_444_800_000));
    }
    for (const ms of [...times, 253_402_300_800_000, -1, -86_400_001, 1.5, 8.64e15]) {
      expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
      // Twice: the second from the kept day.
      expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
