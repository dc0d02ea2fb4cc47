import { randomBytes } from 'node:crypto';
import { MAX_BALANCE_CENTS, type OrderChannel, type OrderKind } from '@rampart/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { sessionCache } from '../auth/session-cache.ts';

/**
 * The balance ledger: every change to a user's balance is an order row written in the same
 * transaction, carrying the balance after it. A debit is one conditional UPDATE (`balance >= amount`),
 * so two purchases racing for the same money cannot both spend it, on SQLite (one writer) and on
 * PostgreSQL (the row lock orders them, and the second sees the first's balance).
 */

type Trx = Transaction<Database>;

export interface OrderEntry {
  kind: OrderKind;
  channel: OrderChannel;
  description: string;
  user_package_id?: number | null;
  coupon_id?: number | null;
}

/** An order number as payment providers accept it: 32 characters of [0-9a-z], time first. */
export const newTradeNo = (now = Date.now()): string =>
  `${now.toString(36).padStart(9, '0')}${randomBytes(12).toString('hex')}`.slice(0, 32);

/** Whole cents as an amount for people and messages: 1250 -> "12.50". */
export const toMoney = (cents: number) => (cents / 100).toFixed(2);

/**
 * Takes `amount` cents from the balance and records the order; refuses with `balance_insufficient`
 * (naming both figures) when the balance does not cover it. Runs inside the caller's transaction.
 */
export async function debit(trx: Trx, userId: number, amount: number, entry: OrderEntry, now = Date.now()) {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`debit of ${amount} cents`);
  const updated = await trx
    .updateTable('users')
    .set((eb) => ({ balance: eb('balance', '-', amount) }))
    .where('id', '=', userId)
    .where('balance', '>=', amount)
    .returning('balance')
    .executeTakeFirst();
  // GET /v1/user answers the cached user: it must not show the balance from before.
  sessionCache.forgetUser(userId);
  if (!updated) {
    const user = await trx.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirst();
    if (!user) throw new AppError('not_found', `user ${userId} does not exist`);
    throw new AppError(
      'balance_insufficient',
      `the balance (${toMoney(user.balance)}) does not cover ${toMoney(amount)}; recharge ${toMoney(amount - user.balance)} more`,
      { balance: toMoney(user.balance), price: toMoney(amount), short: toMoney(amount - user.balance) },
    );
  }
  return insertPaidOrder(trx, userId, -amount, updated.balance, entry, now);
}

/** Adds `amount` cents (negative takes away, never below zero) and records the order. */
export async function credit(trx: Trx, userId: number, amount: number, entry: OrderEntry, now = Date.now()) {
  if (amount < 0) return debit(trx, userId, -amount, entry, now);
  const balance = await addToBalance(trx, userId, amount);
  return insertPaidOrder(trx, userId, amount, balance, entry, now);
}

/**
 * Adds `amount` cents to a balance in one conditional UPDATE that never takes it past
 * MAX_BALANCE_CENTS (the largest exact integer); refuses naming `field` otherwise. Answers the balance after.
 */
export async function addToBalance(trx: Trx, userId: number, amount: number, field = 'amount'): Promise<number> {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`credit of ${amount} cents`);
  const updated = await trx
    .updateTable('users')
    .set((eb) => ({ balance: eb('balance', '+', amount) }))
    .where('id', '=', userId)
    .where('balance', '<=', MAX_BALANCE_CENTS - amount)
    .returning('balance')
    .executeTakeFirst();
  sessionCache.forgetUser(userId);
  if (updated) return Number(updated.balance);
  const balance = await balanceOf(trx, userId);
  throw invalidParam(
    field,
    `the balance (${toMoney(balance)}) plus ${toMoney(amount)} would pass the largest balance, ${toMoney(MAX_BALANCE_CENTS)}`,
  );
}

async function insertPaidOrder(
  trx: Trx,
  userId: number,
  amount: number,
  balanceAfter: number,
  entry: OrderEntry,
  now: number,
) {
  const row = await trx
    .insertInto('orders')
    .values({
      user_id: userId,
      kind: entry.kind,
      channel: entry.channel,
      state: 'paid',
      amount,
      balance_after: balanceAfter,
      description: entry.description,
      user_package_id: entry.user_package_id ?? null,
      coupon_id: entry.coupon_id ?? null,
      out_trade_no: newTradeNo(now),
      provider_txn_id: null,
      created_at: now,
      paid_at: now,
    })
    .returning(['id', 'balance_after'])
    .executeTakeFirstOrThrow();
  return { orderId: row.id, balance: balanceAfter };
}

/** A user's balance now (cents). */
export async function balanceOf(db: Kysely<Database> | Trx, userId: number): Promise<number> {
  const user = await db.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirst();
  if (!user) throw new AppError('not_found', `user ${userId} does not exist`);
  return Number(user.balance);
}
