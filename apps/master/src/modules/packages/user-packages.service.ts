import type {
  PackageAttachResult,
  PriceQuote,
  Term,
  UserPackageBatch,
  UserPackageBuy,
  UserPackageRenew,
  UserPackageUpdate,
} from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { debit } from '../billing/ledger.ts';
import { changeConfig } from '../config/config-version.ts';
import type { Owner } from '../tenancy.ts';
import { checkEnd, latestEnd } from './bounds.ts';
import type { Db } from './catalogue.repository.ts';
import { attachUnattached, hasUnattached, NOTHING_ATTACHED } from './package-attach.ts';
import { publishPackageStates } from './package-expiry.ts';
import { addTerms, type Quote, quotePackage } from './pricing.ts';
import { findUserPackage } from './user-packages.repository.ts';

/**
 * Buying, renewing and changing user packages. A purchase is one transaction: the package's stock,
 * the coupon's uses and the balance are each taken with a conditional UPDATE, and the order, the
 * coupon history and the user package are written beside them; any refusal rolls all of it back.
 */

const DAY = 86_400_000;

/** What only the admin scope (admin:package) changes on user packages. */
const refuseUnlessAdmin = (owner: Owner, fields: string) => {
  if (owner.kind !== 'admin') throw new AppError('forbidden', `${fields}: this needs the admin:package permission`);
};

/** An end an admin sets: an ISO 8601 time from 1970 up to the latest end. */
const parseEnd = (field: string, text: string, now: number) => {
  const ms = Date.parse(text);
  if (!Number.isFinite(ms) || ms < 0) throw invalidParam(field, 'an ISO 8601 time from 1970 on');
  checkEnd(field, ms, now);
  return ms;
};

async function loadPackage(db: Db, id: number) {
  const pkg = await db.selectFrom('packages').selectAll().where('id', '=', id).executeTakeFirst();
  if (!pkg) throw new AppError('not_found', `package_id: package ${id} does not exist`);
  return pkg;
}

/** The package groups a user's group may buy from; null for every group. */
async function buyableGroups(db: Db, userId: number): Promise<number[] | null> {
  const row = await db
    .selectFrom('users')
    .leftJoin('user_groups', 'user_groups.id', 'users.group_id')
    .select('user_groups.package_groups')
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row?.package_groups ? (JSON.parse(row.package_groups) as number[]) : null;
}

export async function checkBuyable(
  db: Db,
  userId: number,
  pkg: { id: number; name: string; on_sale: number; group_id: number | null },
) {
  if (pkg.on_sale !== 1) throw invalidParam('package_id', `package ${pkg.name} is not on sale`);
  const groups = await buyableGroups(db, userId);
  if (groups && (pkg.group_id === null || !groups.includes(pkg.group_id))) {
    throw new AppError('forbidden', `package_id: package ${pkg.name} is not offered to your user group`);
  }
}

/** Takes one from the stock (null: unlimited) or refuses when none is left. */
async function takeStock(db: Db, pkg: { id: number; name: string }) {
  const result = await db
    .updateTable('packages')
    .set((eb) => ({ stock: eb('stock', '-', 1) }))
    .where('id', '=', pkg.id)
    .where('stock', '>', 0)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return;
  const row = await db.selectFrom('packages').select('stock').where('id', '=', pkg.id).executeTakeFirst();
  if (row && row.stock !== null) {
    throw new AppError('limit_reached', `package_id: package ${pkg.name} is out of stock`, {
      limit: 'stock',
      allowed: 0,
      used: 0,
      package: pkg.name,
    });
  }
}

/** Counts a coupon use (refusing one past its total) and records who used it on which order. */
async function useCoupon(db: Db, quote: Quote, userId: number, orderId: number, now: number) {
  const coupon = quote.couponRow;
  if (!coupon) return;
  const result = await db
    .updateTable('coupons')
    .set((eb) => ({ used: eb('used', '+', 1) }))
    .where('id', '=', coupon.id)
    .whereRef('used', '<', 'uses_total')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw invalidParam('coupon', `${coupon.code} has been used up`);
  const mine = await db
    .selectFrom('coupon_history')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('coupon_id', '=', coupon.id)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(mine.n) >= coupon.uses_per_user) {
    throw invalidParam('coupon', `${coupon.code} was already used ${mine.n} time(s), the most one user may`);
  }
  await db
    .insertInto('coupon_history')
    .values({ coupon_id: coupon.id, user_id: userId, order_id: orderId, amount_off: quote.coupon_off, created_at: now })
    .execute();
}

const publicQuote = ({ couponRow: _, ...quote }: Quote): PriceQuote => quote;

/**
 * POST /v1/user-packages. A user buys (`quote: true` only prices it); an admin with `user_id` grants
 * one without charge. Answers the new user package's id, or the quote.
 */
export async function buyPackage(
  db: Kysely<Database>,
  owner: Owner,
  body: UserPackageBuy,
): Promise<({ id: number } & PackageAttachResult) | { quote: PriceQuote }> {
  const term: Term = body.term ?? 'month';
  const terms = body.terms ?? 1;
  const now = Date.now();
  if (body.user_id !== undefined || body.end_at !== undefined) {
    refuseUnlessAdmin(owner, 'user_id and end_at');
    return grantPackage(db, body.user_id ?? owner.userId, body, term, terms, now);
  }
  const pkg = await loadPackage(db, body.package_id);
  const buyer = owner.userId;
  await checkBuyable(db, buyer, pkg);
  const end = addTerms(now, term, terms);
  checkEnd('terms', end, now);
  const quote = await quotePackage(db, { userId: buyer, pkg, term, terms, coupon: body.coupon }, now);
  if (body.quote) return { quote: publicQuote(quote) };
  return inPurchase(db, buyer, async (trx) => {
    await takeStock(trx, pkg);
    const created = await trx
      .insertInto('user_packages')
      .values({
        user_id: buyer,
        package_id: pkg.id,
        name: pkg.name,
        term,
        state: 'active',
        auto_renew: body.auto_renew ? 1 : 0,
        start_at: now,
        end_at: end,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const order = await debit(
      trx,
      buyer,
      quote.amount,
      {
        kind: 'purchase',
        channel: 'balance',
        description: `${pkg.name}: ${terms} ${term}(s)`,
        user_package_id: created.id,
        coupon_id: quote.couponRow?.id ?? null,
      },
      now,
    );
    await useCoupon(trx, quote, buyer, order.orderId, now);
    return created.id;
  });
}

/**
 * Runs a purchase or grant for `userId` in one transaction, then attaches the user's sites and
 * streams without a package to it in the same one. Only when there are some does it take a new
 * config version (what the edges serve of them changes), so purchases do not queue on it.
 */
async function inPurchase(
  db: Kysely<Database>,
  userId: number,
  write: (trx: Transaction<Database>) => Promise<number>,
): Promise<{ id: number } & PackageAttachResult> {
  const now = Date.now();
  if (!(await hasUnattached(db, userId))) {
    return { id: await db.transaction().execute(write), ...NOTHING_ATTACHED };
  }
  return changeConfig(db, async (trx, version) => {
    const id = await write(trx);
    return { id, ...(await attachUnattached(trx, userId, version, now)) };
  });
}

async function grantPackage(
  db: Kysely<Database>,
  userId: number,
  body: UserPackageBuy,
  term: Term,
  terms: number,
  now: number,
) {
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('not_found', `user_id: user ${userId} does not exist`);
  const pkg = await loadPackage(db, body.package_id);
  const end = body.end_at === undefined ? addTerms(now, term, terms) : parseEnd('end_at', body.end_at, now);
  if (end <= now) throw invalidParam('end_at', 'must be in the future');
  if (body.end_at === undefined) checkEnd('terms', end, now);
  return inPurchase(db, userId, async (trx) => {
    const created = await trx
      .insertInto('user_packages')
      .values({
        user_id: userId,
        package_id: pkg.id,
        name: pkg.name,
        term,
        state: 'active',
        auto_renew: body.auto_renew ? 1 : 0,
        start_at: now,
        end_at: end,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return created.id;
  });
}

/** Pays for more terms: the end moves from the later of now and the current end. */
export async function renewPackage(
  db: Kysely<Database>,
  owner: Owner,
  id: number,
  renew: UserPackageRenew,
): Promise<PriceQuote | null> {
  const current = await findUserPackage(db, id, owner);
  const pkg = await loadPackage(db, current.package_id);
  if (pkg.on_sale !== 1) throw invalidParam('renew', `package ${pkg.name} is no longer sold; buy another package`);
  const terms = renew.terms ?? 1;
  const now = Date.now();
  const renewedEnd = (end: number) => {
    const renewed = addTerms(Math.max(now, end), renew.term, terms);
    checkEnd('renew.terms', renewed, now);
    return renewed;
  };
  renewedEnd(current.end_at);
  const quote = await quotePackage(
    db,
    { userId: current.user_id, pkg, term: renew.term, terms, coupon: renew.coupon },
    now,
  );
  if (renew.quote) return publicQuote(quote);
  await db.transaction().execute(async (trx) => {
    const order = await debit(
      trx,
      current.user_id,
      quote.amount,
      {
        kind: 'renewal',
        channel: 'balance',
        description: `${current.name}: ${terms} ${renew.term}(s) more`,
        user_package_id: id,
        coupon_id: quote.couponRow?.id ?? null,
      },
      now,
    );
    // Read the end inside the transaction: a renewal racing this one has moved it already.
    const fresh = await trx.selectFrom('user_packages').select('end_at').where('id', '=', id).executeTakeFirstOrThrow();
    // Past the latest end, the refusal rolls the debit back with it.
    const end = renewedEnd(fresh.end_at);
    await trx
      .updateTable('user_packages')
      .set({ end_at: end, state: current.state === 'suspended' ? 'suspended' : 'active' })
      .where('id', '=', id)
      .execute();
    await useCoupon(trx, quote, current.user_id, order.orderId, now);
  });
  if (current.state === 'expired' || current.end_at <= now) await publishPackageStates(db, [id]);
  return null;
}

/** PUT /v1/user-packages/{id}: renames, auto-renew, a renewal; the admin scope also end_at and state. */
export async function updateUserPackage(db: Kysely<Database>, owner: Owner, id: number, body: UserPackageUpdate) {
  const current = await findUserPackage(db, id, owner);
  if (body.end_at !== undefined || body.state !== undefined) refuseUnlessAdmin(owner, 'end_at and state');
  const now = Date.now();
  const end = body.end_at === undefined ? undefined : parseEnd('end_at', body.end_at, now);
  if (body.renew) {
    const quote = await renewPackage(db, owner, id, body.renew);
    if (quote) return quote;
  }
  const values = {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.auto_renew !== undefined && { auto_renew: body.auto_renew ? 1 : 0 }),
    ...(end !== undefined && {
      end_at: end,
      state: end > now && current.state === 'expired' ? 'active' : current.state,
    }),
    ...(body.state !== undefined && { state: body.state }),
  };
  if (Object.keys(values).length > 0) await db.updateTable('user_packages').set(values).where('id', '=', id).execute();
  if ('state' in values && values.state !== current.state) await publishPackageStates(db, [id]);
  return null;
}

/** PUT /v1/user-packages: one change to many; all of them in the caller's scope or none changes. */
export async function batchUserPackages(db: Kysely<Database>, owner: Owner, body: UserPackageBatch) {
  if (body.extend_days !== undefined || body.state !== undefined) refuseUnlessAdmin(owner, 'extend_days and state');
  await db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('user_packages')
      .select(['id', 'user_id', 'end_at', 'state'])
      .where('id', 'in', body.ids)
      .$if(owner.kind !== 'admin', (qb) => qb.where('user_id', '=', owner.userId))
      .execute();
    const missing = body.ids.find((id) => !rows.some((row) => row.id === id));
    if (missing !== undefined) throw new AppError('not_found', `ids: user package ${missing} does not exist`);
    const now = Date.now();
    const latest = latestEnd(now);
    const tooLate = rows.find(
      (row) => (body.extend_days ?? 0) > 0 && row.end_at + (body.extend_days ?? 0) * DAY > latest,
    );
    if (tooLate) {
      throw invalidParam(
        'extend_days',
        `user package ${tooLate.id} would end after ${new Date(latest).toISOString()}, the latest a package may end`,
      );
    }
    for (const row of rows) {
      const end = body.extend_days === undefined ? row.end_at : row.end_at + body.extend_days * DAY;
      let state = body.state ?? row.state;
      if (state !== 'suspended') state = end > now ? 'active' : 'expired';
      await trx
        .updateTable('user_packages')
        .set({
          end_at: end,
          state,
          ...(body.auto_renew !== undefined && { auto_renew: body.auto_renew ? 1 : 0 }),
        })
        .where('id', '=', row.id)
        .execute();
    }
  });
  await publishPackageStates(db, body.ids);
}

/** DELETE (admin:package, by the route's policy): the package's sites and streams stay, no longer counted against it. */
export async function deleteUserPackage(db: Kysely<Database>, owner: Owner, id: number) {
  await findUserPackage(db, id, owner);
  const counted = await db.selectFrom('sites').select('id').where('user_package_id', '=', id).executeTakeFirst();
  await db.deleteFrom('user_packages').where('id', '=', id).execute();
  // Its sites and streams now count against no package, and are served again.
  if (counted) await changeConfig(db, async () => undefined);
}
