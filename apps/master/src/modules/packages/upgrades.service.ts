import type { UpgradeBuy, UpgradeExtend, UpgradeExtendResult, UpgradeQuote, UpgradeView } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { balanceOf, debit } from '../billing/ledger.ts';
import type { Owner } from '../tenancy.ts';
import { exactCents, presentTime } from './bounds.ts';
import { type Db, idList } from './catalogue.repository.ts';
import { publishPackageStates } from './package-expiry.ts';
import { findUserPackage, type UserPackageRow } from './user-packages.repository.ts';

/**
 * Upgrade packs on a user package (`/v1/user-package/{id}/upgrades`): bought by the pack, priced per
 * month and prorated by the day to the package's end, and in force until that end.
 */

const DAY = 86_400_000;

/** Days left, counting a started day as whole; at least one. */
const daysLeft = (end: number, now: number) => Math.max(1, Math.ceil((end - now) / DAY));

/**
 * The price of `amount` packs to the end: price per month x packs x days / 30, rounded half up to the
 * cent. Exact whatever the size (a product past 2^53 would round as a number); `exactCents` bounds it.
 */
export const proratedPrice = (priceMonth: number, amount: number, days: number): bigint =>
  (BigInt(priceMonth) * BigInt(amount) * BigInt(days) * 2n + 30n) / 60n;

async function loadPack(db: Db, owner: UserPackageRow, packUpId: number, field: string) {
  const pack = await db.selectFrom('package_ups').selectAll().where('id', '=', packUpId).executeTakeFirst();
  if (!pack) throw new AppError('not_found', `${field}: upgrade pack ${packUpId} does not exist`);
  const packages = idList(pack.package_ids);
  if (packages.length > 0 && !packages.includes(owner.package_id)) {
    throw invalidParam(field, `upgrade pack ${pack.name} does not apply to this package`);
  }
  return pack;
}

function usable(owner: UserPackageRow, now: number) {
  if (owner.state === 'suspended') throw invalidParam('id', 'the user package is suspended');
  if (owner.end_at <= now) throw invalidParam('id', 'the user package has expired; renew it first');
}

export async function quoteUpgrade(
  db: Db,
  owner: Owner,
  userPackageId: number,
  packUpId: number,
  amount: number,
  now = Date.now(),
): Promise<UpgradeQuote> {
  const userPackage = await findUserPackage(db, userPackageId, owner);
  usable(userPackage, now);
  const pack = await loadPack(db, userPackage, packUpId, 'package_up_id');
  const days = daysLeft(userPackage.end_at, now);
  const price = exactCents('amount', proratedPrice(pack.price_month, amount, days));
  const user = await db
    .selectFrom('users')
    .select('balance')
    .where('id', '=', userPackage.user_id)
    .executeTakeFirstOrThrow();
  return { package_up_id: pack.id, amount, days, price, balance: user.balance };
}

export async function listUpgrades(db: Db, owner: Owner, userPackageId: number): Promise<UpgradeView[]> {
  await findUserPackage(db, userPackageId, owner);
  const rows = await db
    .selectFrom('user_package_upgrades')
    .innerJoin('package_ups', 'package_ups.id', 'user_package_upgrades.package_up_id')
    .selectAll('user_package_upgrades')
    .select('package_ups.name')
    .where('user_package_id', '=', userPackageId)
    .orderBy('user_package_upgrades.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    user_package_id: row.user_package_id,
    package_up_id: row.package_up_id,
    name: row.name,
    kind: row.kind,
    amount: row.amount,
    adds: row.adds,
    end_at: presentTime(row.end_at),
    created_at: presentTime(row.created_at),
  }));
}

/** POST: buys `amount` more packs (added to those in force), paid from the owner's balance. */
export async function buyUpgrade(db: Kysely<Database>, scope: Owner, userPackageId: number, body: UpgradeBuy) {
  const now = Date.now();
  const quote = await quoteUpgrade(db, scope, userPackageId, body.package_up_id, body.amount, now);
  const owner = await findUserPackage(db, userPackageId, scope);
  const pack = await loadPack(db, owner, body.package_up_id, 'package_up_id');
  if (pack.on_sale !== 1) throw invalidParam('package_up_id', `upgrade pack ${pack.name} is not on sale`);
  await db.transaction().execute(async (trx) => {
    await debit(
      trx,
      owner.user_id,
      quote.price,
      {
        kind: 'upgrade',
        channel: 'balance',
        description: `${owner.name}: ${body.amount} x ${pack.name} for ${quote.days} day(s)`,
        user_package_id: owner.id,
      },
      now,
    );
    const existing = await trx
      .selectFrom('user_package_upgrades')
      .selectAll()
      .where('user_package_id', '=', owner.id)
      .where('package_up_id', '=', pack.id)
      .executeTakeFirst();
    if (existing) {
      const live = existing.end_at > now;
      const amount = (live ? existing.amount : 0) + body.amount;
      await trx
        .updateTable('user_package_upgrades')
        .set({ amount, adds: amount * pack.amount, end_at: owner.end_at })
        .where('id', '=', existing.id)
        .execute();
    } else {
      await trx
        .insertInto('user_package_upgrades')
        .values({
          user_package_id: owner.id,
          package_up_id: pack.id,
          kind: pack.kind,
          amount: body.amount,
          adds: body.amount * pack.amount,
          end_at: owner.end_at,
          created_at: now,
        })
        .execute();
    }
  });
  // The package's bandwidth is the cap its sites carry in the snapshot.
  if (pack.kind === 'bandwidth_mbps') await publishPackageStates(db, [owner.id]);
}

/**
 * PUT: carries every upgrade that ends before the package does up to the package's end (after a
 * renewal), paying the prorated price of the extra days for each; `quote` answers the price only, and
 * `price` (the quote the user agreed to) refuses a price that changed since (a day passed).
 */
export async function extendUpgrades(
  db: Kysely<Database>,
  scope: Owner,
  userPackageId: number,
  body: UpgradeExtend = {},
): Promise<UpgradeExtendResult> {
  const now = Date.now();
  const owner = await findUserPackage(db, userPackageId, scope);
  usable(owner, now);
  const rows = await db
    .selectFrom('user_package_upgrades')
    .innerJoin('package_ups', 'package_ups.id', 'user_package_upgrades.package_up_id')
    .select([
      'user_package_upgrades.id',
      'user_package_upgrades.amount',
      'user_package_upgrades.end_at',
      'package_ups.price_month',
      'package_ups.name',
    ])
    .where('user_package_id', '=', owner.id)
    .where('user_package_upgrades.end_at', '<', owner.end_at)
    .execute();
  let sum = 0n;
  for (const row of rows)
    sum += proratedPrice(row.price_month, row.amount, daysLeft(owner.end_at, Math.max(now, row.end_at)));
  const total = exactCents('price', sum);
  if (body.quote || rows.length === 0) {
    const balance = await balanceOf(db, owner.user_id);
    return { extended: rows.length, price: total, balance, quote: body.quote === true };
  }
  if (body.price !== undefined && body.price !== total) {
    throw invalidParam('price', `the price is now ${total} cents, not ${body.price}; quote again`);
  }
  const paid = await db.transaction().execute(async (trx) => {
    const order = await debit(
      trx,
      owner.user_id,
      total,
      {
        kind: 'upgrade',
        channel: 'balance',
        description: `${owner.name}: ${rows.length} upgrade(s) carried to the package's end`,
        user_package_id: owner.id,
      },
      now,
    );
    await trx
      .updateTable('user_package_upgrades')
      .set({ end_at: owner.end_at })
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return order;
  });
  return { extended: rows.length, price: total, balance: paid.balance, quote: false };
}

/** DELETE: removes the pack from the user package at once; what is left of it is not refunded. */
export async function removeUpgrade(db: Kysely<Database>, scope: Owner, userPackageId: number, packUpId: number) {
  const owner = await findUserPackage(db, userPackageId, scope);
  const result = await db
    .deleteFrom('user_package_upgrades')
    .where('user_package_id', '=', owner.id)
    .where('package_up_id', '=', packUpId)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) {
    throw new AppError('not_found', `package_up_id: upgrade pack ${packUpId} is not on user package ${userPackageId}`);
  }
}
