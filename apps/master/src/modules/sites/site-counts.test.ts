import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.ts';
import { DIALECTS } from '../../test/databases.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { insertUser } from '../users/users.repository.ts';
import { listSites } from './site-list.repository.ts';
import { batchSites, createSite } from './sites.service.ts';

const origin = { address: '127.0.0.1', port: 8081, weight: 1, backup: false };

describe.each(DIALECTS)('the site list total (kept by triggers) on $dialect', (target) => {
  let test: TestApp;
  let db: Kysely<Database>;
  let users: number[];
  let serial = 0;
  beforeEach(async () => {
    test = await startTestApp(target);
    db = test.database.db;
    users = [];
    for (const username of ['alice', 'bob', 'carol']) {
      users.push((await insertUser(db, { username, passwordHash: 'x', type: 2, access: [] }, Date.now())).id);
    }
  });
  afterEach(async () => {
    await test.close();
  });

  const user = (index: number) => users[index] as number;
  const newSite = (userId: number) => {
    serial += 1;
    return createSite(db, userId, { domains: [`s${serial}.count.example.com`], origins: [origin] });
  };

  /** Every unfiltered total (each user's, an admin's for one user and for all) against a count of the rows. */
  async function expectExactTotals() {
    const rows = await db.selectFrom('sites').select('user_id').execute();
    for (const userId of users) {
      const counted = rows.filter((row) => Number(row.user_id) === userId).length;
      expect((await listSites(db, { kind: 'user', userId }, {}, 1, 5)).total).toBe(counted);
      expect((await listSites(db, { kind: 'admin', userId: 1 }, { userId }, 1, 5)).total).toBe(counted);
    }
    expect((await listSites(db, { kind: 'admin', userId: 1 }, {}, 1, 5)).total).toBe(rows.length);
  }

  it('stays exact through creates, batch deletes, owner changes and a user deleted with their sites', async () => {
    await expectExactTotals();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await newSite(user(0)));
    for (let i = 0; i < 3; i++) await newSite(user(1));
    await expectExactTotals();

    await batchSites(
      db,
      { kind: 'user', userId: user(0) },
      [created[0]?.id ?? 0, created[1]?.id ?? 0],
      'delete',
      undefined,
    );
    // Edits rewrite user_id with the same value: no change to any count.
    await batchSites(db, { kind: 'user', userId: user(0) }, [created[2]?.id ?? 0], 'disable', undefined);
    await expectExactTotals();

    // An owner change (no route does it today; an operator might in SQL): one leaves, one arrives.
    await db
      .updateTable('sites')
      .set({ user_id: user(2) })
      .where('id', '=', created[3]?.id ?? 0)
      .execute();
    await expectExactTotals();
    expect((await listSites(db, { kind: 'user', userId: user(2) }, {}, 1, 5)).total).toBe(1);

    // A rolled-back create leaves no trace in the count.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('sites')
          .values({
            user_id: user(1),
            name: 'rolled-back',
            primary_domain: 'rolled.back.example.com',
            settings: '{}',
            enabled: 1,
            https: 0,
            cert_id: null,
            group_id: null,
            version: 1,
            created_at: 0,
            updated_at: 0,
          })
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expectExactTotals();

    // Deleting a user cascades to their sites and to their count row.
    const deleted = user(1);
    await db.deleteFrom('users').where('id', '=', deleted).execute();
    users = users.filter((id) => id !== deleted);
    await expectExactTotals();
    expect(await db.selectFrom('site_counts').select('sites').where('user_id', '=', deleted).execute()).toEqual([]);
  });

  /** A bare insert, outside the service's config-version transaction (which serialises site writes). */
  const rawSite = (userId: number) => {
    serial += 1;
    return db
      .insertInto('sites')
      .values({
        user_id: userId,
        name: `raw${serial}`,
        primary_domain: `raw${serial}.count.example.com`,
        settings: '{}',
        enabled: 1,
        https: 0,
        cert_id: null,
        group_id: null,
        version: 1,
        created_at: 0,
        updated_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  };

  it('stays exact under concurrent creates and deletes of one user', async () => {
    const first = await Promise.all(Array.from({ length: 12 }, () => newSite(user(0))));
    await expectExactTotals();
    // Creates and deletes at once: on PostgreSQL each runs on its own pooled connection.
    await Promise.all([
      ...Array.from({ length: 10 }, () => newSite(user(0))),
      ...first
        .slice(0, 8)
        .map((site) => batchSites(db, { kind: 'user', userId: user(0) }, [site.id], 'delete', undefined)),
    ]);
    await expectExactTotals();
    expect((await listSites(db, { kind: 'user', userId: user(0) }, {}, 1, 5)).total).toBe(14);
    // Statements that do not queue behind the config version: the count row is all they share.
    const raw = await Promise.all(Array.from({ length: 30 }, (_, i) => rawSite(user(i % 2))));
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => rawSite(user(i % 3))),
      ...raw.slice(0, 15).map((site) => db.deleteFrom('sites').where('id', '=', site.id).execute()),
    ]);
    await expectExactTotals();
  });

  it('still counts the rows when a filter narrows the list', async () => {
    const sites = [];
    for (let i = 0; i < 4; i++) sites.push(await newSite(user(0)));
    await batchSites(db, { kind: 'user', userId: user(0) }, [sites[0]?.id ?? 0], 'disable', undefined);
    const owner = { kind: 'user' as const, userId: user(0) };
    expect((await listSites(db, owner, {}, 1, 2)).total).toBe(4);
    expect((await listSites(db, owner, { enabled: false }, 1, 2)).total).toBe(1);
    expect((await listSites(db, owner, { enabled: true }, 1, 2)).total).toBe(3);
    expect((await listSites(db, owner, { domain: 'count.example' }, 1, 2)).total).toBe(4);
  });
});
