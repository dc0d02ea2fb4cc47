import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { sessionCache } from '../auth/session-cache.ts';
import { toMoney } from '../billing/ledger.ts';

export interface RefundedOrder {
  id: number;
  user_id: number;
  kind: string;
  channel: string;
  state: string;
  amount: number;
  out_trade_no: string;
  refund_of: number | null;
}

const COLUMNS = ['id', 'user_id', 'kind', 'channel', 'state', 'amount', 'out_trade_no', 'refund_of'] as const;
const numeric = (row: RefundedOrder): RefundedOrder => ({ ...row, amount: Number(row.amount) });

/** Any user's order (the caller is an admin acting on purpose). */
export async function findOrder(db: Kysely<Database>, id: number): Promise<RefundedOrder | undefined> {
  const row = await db.selectFrom('orders').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row && numeric(row);
}

/** The order carrying this number (a refund's number is its out_trade_no). */
export async function findByNumber(db: Kysely<Database>, number: string): Promise<RefundedOrder | undefined> {
  const row = await db.selectFrom('orders').select(COLUMNS).where('out_trade_no', '=', number).executeTakeFirst();
  return row && numeric(row);
}

/**
 * Holds a refund before the provider is asked: in one transaction, with the order's row locked, the
 * refunds so far plus this one must not pass the order's amount, the balance must cover it (one
 * conditional UPDATE: never below zero), and a pending refund order records it with the balance after.
 */
export async function holdRefund(
  db: Kysely<Database>,
  order: RefundedOrder,
  refund: { amount: number; refund_no: string; description: string },
  now: number,
): Promise<RefundedOrder> {
  try {
    return await db.transaction().execute(async (trx) => {
      // Locks the order's row on PostgreSQL, so two refunds of it are counted one after the other.
      await trx.updateTable('orders').set({ state: 'paid' }).where('id', '=', order.id).execute();
      const done = await trx
        .selectFrom('orders')
        .select(sql<number | string | null>`sum(-amount)`.as('refunded'))
        .where('refund_of', '=', order.id)
        .where('kind', '=', 'refund')
        .where('state', 'in', ['pending', 'paid'])
        .executeTakeFirst();
      const refunded = Number(done?.refunded ?? 0);
      if (refunded + refund.amount > order.amount) {
        throw invalidParam(
          'amount',
          `${toMoney(refund.amount)} is more than the ${toMoney(order.amount - refunded)} left to refund of order ${order.id} (${toMoney(order.amount)}, ${toMoney(refunded)} refunded)`,
        );
      }
      const user = await trx
        .updateTable('users')
        .set((eb) => ({ balance: eb('balance', '-', refund.amount) }))
        .where('id', '=', order.user_id)
        .where('balance', '>=', refund.amount)
        .returning('balance')
        .executeTakeFirst();
      if (!user) {
        const now = await trx.selectFrom('users').select('balance').where('id', '=', order.user_id).executeTakeFirst();
        throw new AppError(
          'balance_insufficient',
          `amount: the balance (${toMoney(Number(now?.balance ?? 0))}) is less than the refund (${toMoney(refund.amount)}); a refund never takes a balance below zero`,
          {
            balance: toMoney(Number(now?.balance ?? 0)),
            price: toMoney(refund.amount),
            short: toMoney(refund.amount - Number(now?.balance ?? 0)),
          },
        );
      }
      const row = await trx
        .insertInto('orders')
        .values({
          user_id: order.user_id,
          kind: 'refund',
          channel: order.channel,
          state: 'pending',
          amount: -refund.amount,
          balance_after: Number(user.balance),
          description: refund.description,
          user_package_id: null,
          coupon_id: null,
          out_trade_no: refund.refund_no,
          provider_txn_id: null,
          created_at: now,
          paid_at: null,
          refund_of: order.id,
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return numeric(row);
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('conflict', 'refund_no: a refund with this number is under way; call again to see it');
    throw error;
  } finally {
    // After the commit: GET /v1/user answers the cached user, whose balance this changed.
    sessionCache.forgetUser(order.user_id);
  }
}

/** The provider refunded: the held refund is paid. */
export async function completeRefund(db: Kysely<Database>, id: number, providerRefundId: string | null, now: number) {
  await db
    .updateTable('orders')
    .set({ state: 'paid', paid_at: now, provider_txn_id: providerRefundId })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

/** The provider refused: the held refund is gone and the balance gets it back, in one transaction. */
export async function releaseRefund(db: Kysely<Database>, id: number) {
  const userId = await db.transaction().execute(async (trx) => {
    const released = await trx
      .deleteFrom('orders')
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .where('kind', '=', 'refund')
      .returning(['user_id', 'amount'])
      .executeTakeFirst();
    if (!released) return undefined;
    await trx
      .updateTable('users')
      .set((eb) => ({ balance: eb('balance', '+', -Number(released.amount)) }))
      .where('id', '=', released.user_id)
      .execute();
    return released.user_id;
  });
  // After the commit: GET /v1/user answers the cached user, whose balance this changed.
  if (userId !== undefined) sessionCache.forgetUser(userId);
}
