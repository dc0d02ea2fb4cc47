import type { UserPackageView } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSecretKey, secretBox } from '../../secrets.ts';
import { DIALECTS } from '../../test/databases.ts';
import { createSite, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { settleUserPackages } from '../packages/package-expiry.ts';
import { enforceMonthlyTraffic } from '../packages/package-traffic.ts';
import { createMessenger } from './messenger.ts';
import { createNotifier, type Notifier } from './notifier.ts';
import { sendPackageExpiryNotices, sendPackageTrafficNotices } from './package-notices.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Inbox {
  list: { type: string; title: string; body: string }[];
}

describe.each(DIALECTS)('package and balance notices on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let notifier: Notifier;
  let monthly: number;
  let capped: number;

  const userId = async (token: string) => data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
  const buyer = async (name: string, cents: number) => {
    const token = await addUser(test, name);
    data(
      await test.call('POST', `/v1/user/${await userId(token)}/recharge`, { token: admin, body: { amount: cents } }),
    );
    return token;
  };
  const buy = async (token: string, packageId: number, autoRenew = false) =>
    data<UserPackageView>(
      await test.call('POST', '/v1/user-packages', { token, body: { package_id: packageId, auto_renew: autoRenew } }),
    );
  const endAt = (id: number, end: number) =>
    test.database.db.updateTable('user_packages').set({ end_at: end }).where('id', '=', id).execute();
  const endOf = async (id: number) =>
    Number(
      (
        await test.database.db
          .selectFrom('user_packages')
          .select('end_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).end_at,
    );
  const inbox = async (token: string, type: string) =>
    data<Inbox>(await test.call('GET', `/v1/messages?page=1&limit=50&type=${type}`, { token })).list;
  const titles = async (token: string, type: string) => (await inbox(token, type)).map((entry) => entry.title).sort();
  const expiryNotices = (now: number) => sendPackageExpiryNotices(test.database.db, notifier, now);

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    const log = test.app.log;
    const { db } = test.database;
    const messenger = createMessenger({ db, log, smtpFrom: 'rampart@example.com' });
    notifier = createNotifier({
      db,
      log,
      messenger,
      secrets: secretBox(loadSecretKey(test.database.dataDir, undefined)),
    });
    const create = async (body: Record<string, unknown>) =>
      data<{ id: number }>(await test.call('POST', '/v1/packages', { token: admin, body })).id;
    monthly = await create({ name: 'Monthly', price_month: 1000, max_sites: 5, max_domains: 5, on_sale: true });
    capped = await create({
      name: 'Capped',
      price_month: 100,
      traffic_gb: 1,
      max_sites: 2,
      max_domains: 2,
      on_sale: true,
    });
  });
  afterAll(() => test.close());

  it('tells the owner 7, 3 and 1 day before a package ends and once it expired, each stage once, afresh after a renewal', async () => {
    const ann = await buyer('ann', 2000);
    const pkg = await buy(ann, monthly);
    const start = Date.now();
    const end = start + 20 * DAY_MS;
    await endAt(pkg.id, end);
    /** The notices as they would go out with `days` left before the package's end. */
    const left = (days: number, until = end) => expiryNotices(until - days * DAY_MS);
    expect(await left(20)).toBe(0);
    expect(await left(8)).toBe(0);
    expect(await left(6)).toBe(1);
    expect(await left(5)).toBe(0);
    expect(await titles(ann, 'package_expiry')).toEqual(['Package "Monthly" expires in 7 days']);
    expect(await left(2.5)).toBe(1);
    expect(await left(0.5)).toBe(1);
    expect(await left(0.2)).toBe(0);
    expect(await settleUserPackages(test.database.db, end + 1000)).toMatchObject({ expired: 1 });
    expect(await left(-0.1)).toBe(1);
    expect(await left(-1)).toBe(0);
    const told = await inbox(ann, 'package_expiry');
    expect(told.map((entry) => entry.title).sort()).toEqual([
      'Package "Monthly" expires in 1 day',
      'Package "Monthly" expires in 3 days',
      'Package "Monthly" expires in 7 days',
      'Package "Monthly" has expired',
    ]);
    expect(told.find((entry) => entry.title.endsWith('expired'))?.body).toContain('no longer served');

    // Renewed: a new end, and the stages start again.
    data(await test.call('PUT', `/v1/user-packages/${pkg.id}`, { token: ann, body: { renew: { term: 'month' } } }));
    const renewed = await endOf(pkg.id);
    expect(renewed).toBeGreaterThan(end);
    expect(await left(5, renewed)).toBe(1);
    expect(await titles(ann, 'package_expiry')).toHaveLength(5);
  });

  it('tells a package found late only its most urgent stage', async () => {
    const fay = await buyer('fay', 1000);
    const pkg = await buy(fay, monthly);
    const end = Date.now() + 20 * DAY_MS;
    await endAt(pkg.id, end);
    expect(await expiryNotices(end - 0.5 * DAY_MS)).toBe(1);
    expect(await expiryNotices(end - 0.4 * DAY_MS)).toBe(0);
    expect(await titles(fay, 'package_expiry')).toEqual(['Package "Monthly" expires in 1 day']);
  });

  it('says nothing about a package that renews itself from a balance that covers it, and tells the owner when it does not', async () => {
    const ben = await buyer('ben', 1500);
    const pkg = await buy(ben, monthly, true);
    // 1500 - 1000 leaves 500: with 600 more it covers the renewal price of 1000.
    data(await test.call('POST', `/v1/user/${await userId(ben)}/recharge`, { token: admin, body: { amount: 600 } }));
    const end = Date.now() + 20 * DAY_MS;
    await endAt(pkg.id, end);
    expect(await expiryNotices(end - 6 * DAY_MS)).toBe(0);

    data(await test.call('POST', `/v1/user/${await userId(ben)}/recharge`, { token: admin, body: { amount: -700 } }));
    expect(await expiryNotices(end - 5 * DAY_MS)).toBe(1);
    expect(await expiryNotices(end - 4 * DAY_MS)).toBe(0);
    const funds = await inbox(ben, 'balance_low');
    expect(funds).toHaveLength(1);
    expect(funds[0]).toMatchObject({ title: 'Balance too low to renew "Monthly"' });
    expect(funds[0]?.body).toContain('for 10.00, and your balance is 4.00. Recharge at least 6.00');
    expect(await inbox(ben, 'package_expiry')).toEqual([]);
    // The next stage is told again while the balance stays short.
    expect(await expiryNotices(end - 2 * DAY_MS)).toBe(1);
    expect(await inbox(ben, 'balance_low')).toHaveLength(2);
  });

  it('tells the owner at 80% and at 100% of the monthly traffic, once each per month', async () => {
    const cy = await buyer('cy', 1000);
    const pkg = await buy(cy, capped);
    const site = await createSite(test, cy, 'cy.example.test');
    const today = Math.floor(Date.now() / DAY_MS) * 86_400;
    const sent = async (bytes: number) => {
      await test.database.logs.deleteFrom('site_traffic_days').where('site_id', '=', site).execute();
      await test.database.logs
        .insertInto('site_traffic_days')
        .values({
          site_id: site,
          bucket: today,
          requests: 1,
          bytes_in: 0,
          bytes_out: bytes,
          status_2xx: 1,
          status_3xx: 0,
          status_4xx: 0,
          status_5xx: 0,
          cache_hits: 0,
          blocked: 0,
        })
        .execute();
      const { usage } = await enforceMonthlyTraffic(test.database.db, test.database.logs);
      expect(usage.find((entry) => entry.id === pkg.id)).toMatchObject({ sent: bytes, cap: 1_000_000_000 });
      return sendPackageTrafficNotices(test.database.db, notifier, usage);
    };
    expect(await sent(500_000_000)).toBe(0);
    expect(await sent(850_000_000)).toBe(1);
    expect(await sent(900_000_000)).toBe(0);
    expect(await sent(1_100_000_000)).toBe(1);
    expect(await sent(1_200_000_000)).toBe(0);
    const told = await inbox(cy, 'package_usage');
    expect(told.map((entry) => entry.title).sort()).toEqual([
      'Package "Capped" has used 80% of its monthly traffic',
      'Package "Capped" has used all of its monthly traffic',
    ]);
    expect(told.find((entry) => entry.title.includes('80%'))?.body).toContain('0.85 GB of 1.00 GB');
    // An unlimited package is never told.
    const dee = await buyer('dee', 1000);
    await buy(dee, monthly);
    expect(await inbox(dee, 'package_usage')).toEqual([]);
  });

  it('sends them from the scheduled tasks', async () => {
    const eve = await buyer('eve', 1000);
    const pkg = await buy(eve, monthly);
    await endAt(pkg.id, Date.now() + 0.5 * DAY_MS);
    const run = await test.call('POST', '/v1/tasks/scheduled/expiry-notices/run', { token: admin });
    expect(run.body.code, run.body.msg).toBe(0);
    await expect.poll(() => titles(eve, 'package_expiry')).toEqual(['Package "Monthly" expires in 1 day']);
  });
});
