import type { Term } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { toMoney } from '../billing/ledger.ts';
import type { PackageTraffic } from '../packages/package-traffic.ts';
import { termPrice } from '../packages/pricing.ts';
import { claimNotice } from './notice-claims.ts';
import type { Notifier } from './notifier.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Days before a package ends at which its owner is told, most urgent first (0: it has expired). */
const EXPIRY_STAGES = [0, 1, 3, 7] as const;
/** A package expired longer ago than this is no longer news. */
const EXPIRED_FOR_MS = 30 * DAY_MS;
/** Percentages of the monthly traffic at which the owner is told, the highest first. */
const TRAFFIC_STAGES = [100, 80] as const;
/** Packages told per stage and run; the next run goes on with the rest. */
const BATCH = 500;

const gigabytes = (bytes: number) => `${(bytes / 1e9).toFixed(2)} GB`;
const inDays = (days: number) => (days === 1 ? '1 day' : `${days} days`);

/**
 * Tells each user package's owner 7, 3 and 1 day(s) before it ends and once it has expired, the most
 * urgent stage not told yet, once per end time (a renewal starts afresh):
 * - a package that renews itself (auto-renew on, still on sale) says nothing while the owner's
 *   balance covers its price; when it does not, the owner hears `balance_low`, with the sum missing;
 * - any other package, `package_expiry`; and `package_expiry` once it has expired (the settlement
 *   marks it so when it could not renew).
 * Each stage is claimed in the database first (`claimNotice`). Answers how many notices went out.
 */
export async function sendPackageExpiryNotices(db: Kysely<Database>, notifier: Notifier, now = Date.now()) {
  let sent = 0;
  for (const [index, days] of EXPIRY_STAGES.entries()) {
    const upper = now + days * DAY_MS;
    const lower = index === 0 ? now - EXPIRED_FOR_MS : now + (EXPIRY_STAGES[index - 1] ?? 0) * DAY_MS;
    const due = await db
      .selectFrom('user_packages')
      .innerJoin('packages', 'packages.id', 'user_packages.package_id')
      .innerJoin('users', 'users.id', 'user_packages.user_id')
      .select([
        'user_packages.id',
        'user_packages.user_id',
        'user_packages.name',
        'user_packages.term',
        'user_packages.end_at',
        'user_packages.auto_renew',
        'packages.on_sale',
        'packages.price_month',
        'packages.price_quarter',
        'packages.price_year',
        'users.balance',
      ])
      .where('user_packages.state', '=', days === 0 ? 'expired' : 'active')
      .where('user_packages.end_at', '>', lower)
      .where('user_packages.end_at', '<=', upper)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('expiry_notices')
              .select('object_id')
              .where('kind', 'in', ['package', 'package_funds'])
              .whereRef('object_id', '=', 'user_packages.id')
              .whereRef('expires_at', '=', 'user_packages.end_at')
              .where('days', '<=', days),
          ),
        ),
      )
      .orderBy('user_packages.end_at')
      .limit(BATCH)
      .execute();
    for (const row of due) {
      const ends = new Date(Number(row.end_at)).toISOString();
      const price = termPrice(row, row.term as Term);
      const renews = days > 0 && row.auto_renew === 1 && row.on_sale === 1 && price !== null;
      if (renews && row.balance >= price) continue;
      const kind = renews ? 'package_funds' : 'package';
      if (!(await claimNotice(db, { kind, objectId: row.id, period: Number(row.end_at), stage: days }, now))) continue;
      const [type, notice] = renews
        ? ([
            'balance_low',
            {
              title: `Balance too low to renew "${row.name}"`,
              body: `Package "${row.name}" renews itself at ${ends} for ${toMoney(price)}, and your balance is ${toMoney(row.balance)}. Recharge at least ${toMoney(price - row.balance)} so that it renews and its sites stay online.`,
            },
          ] as const)
        : days === 0
          ? ([
              'package_expiry',
              {
                title: `Package "${row.name}" has expired`,
                body: `Package "${row.name}" ended at ${ends}. Its sites and streams are no longer served; renew it to bring them back.`,
              },
            ] as const)
          : ([
              'package_expiry',
              {
                title: `Package "${row.name}" expires in ${inDays(days)}`,
                body: `Package "${row.name}" ends at ${ends}. Renew it before then so that its sites and streams stay online.`,
              },
            ] as const);
      await notifier.notify(row.user_id, type, notice, now);
      sent++;
    }
  }
  return sent;
}

/**
 * Tells each owner when a package has sent 80% and 100% of its monthly traffic (`package_usage`),
 * the highest stage reached and not told yet, once per package, stage and month. `usage` is what
 * the traffic cap computed in the same settlement run. Answers how many notices went out.
 */
export async function sendPackageTrafficNotices(
  db: Kysely<Database>,
  notifier: Notifier,
  usage: readonly PackageTraffic[],
  now = Date.now(),
) {
  const reached = usage.flatMap((entry) => {
    const stage = entry.cap > 0 ? TRAFFIC_STAGES.find((percent) => entry.sent * 100 >= entry.cap * percent) : undefined;
    return stage === undefined ? [] : [{ ...entry, stage }];
  });
  if (reached.length === 0) return 0;
  const told = await db
    .selectFrom('expiry_notices')
    .select(['object_id', 'expires_at', 'days'])
    .where('kind', '=', 'package_traffic')
    .where(
      'object_id',
      'in',
      reached.map((entry) => entry.id),
    )
    .execute();
  let sent = 0;
  for (const entry of reached) {
    const already = told.some(
      (claim) => claim.object_id === entry.id && Number(claim.expires_at) === entry.month && claim.days >= entry.stage,
    );
    if (already) continue;
    const claim = { kind: 'package_traffic', objectId: entry.id, period: entry.month, stage: entry.stage } as const;
    if (!(await claimNotice(db, claim, now))) continue;
    const figures = `${gigabytes(entry.sent)} of ${gigabytes(entry.cap)}`;
    const notice =
      entry.stage === 100
        ? {
            title: `Package "${entry.name}" has used all of its monthly traffic`,
            body: `Its sites have sent ${figures} this month (UTC). Its sites and streams are no longer served until the month ends; a traffic pack brings them back now.`,
          }
        : {
            title: `Package "${entry.name}" has used ${entry.stage}% of its monthly traffic`,
            body: `Its sites have sent ${figures} this month (UTC). At 100% they are no longer served until the month ends or a traffic pack is added.`,
          };
    await notifier.notify(entry.user_id, 'package_usage', notice, now);
    sent++;
  }
  return sent;
}
