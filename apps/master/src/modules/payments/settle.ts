import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';

/**
 * Paying a pending recharge order once its payment is verified: one transaction moves the order from
 * pending to paid (a conditional UPDATE, so of many deliveries of one notification exactly one wins),
 * records the provider's transaction id (unique: one payment credits one order) and credits the
 * balance, writing the balance after it on the same order row (the ledger's rule, ledger.ts).
 */

export async function creditPendingOrder(
  trx: Transaction<Database>,
  orderId: number,
  providerTxnId: string,
  now = Date.now(),
): Promise<{ balance: number } | null> {
  const order = await trx
    .updateTable('orders')
    .set({ state: 'paid', provider_txn_id: providerTxnId, paid_at: now })
    .where('id', '=', orderId)
    .where('state', '=', 'pending')
    .returning(['user_id', 'amount'])
    .executeTakeFirst();
  if (!order) return null;
  const user = await trx
    .updateTable('users')
    .set((eb) => ({ balance: eb('balance', '+', Number(order.amount)) }))
    .where('id', '=', order.user_id)
    .returning('balance')
    .executeTakeFirstOrThrow();
  await trx.updateTable('orders').set({ balance_after: user.balance }).where('id', '=', orderId).execute();
  return { balance: Number(user.balance) };
}

export interface VerifiedPayment {
  channel: 'wxpay' | 'alipay';
  outTradeNo: string;
  /** What the provider says was paid, in cents. */
  amount: number;
  providerTxnId: string;
}

export type Settlement = { ok: true; credited: boolean } | { ok: false; reason: string };

/** Credits the order a verified payment is for, once; refuses (and logs) what does not match it. */
export async function settleRecharge(
  db: Kysely<Database>,
  payment: VerifiedPayment,
  log: FastifyBaseLogger,
): Promise<Settlement> {
  const refuse = (reason: string): Settlement => {
    log.warn({ payment }, `payment notification refused: ${reason}`);
    return { ok: false, reason };
  };
  const order = await db
    .selectFrom('orders')
    .select(['id', 'kind', 'channel', 'state', 'amount', 'provider_txn_id'])
    .where('out_trade_no', '=', payment.outTradeNo)
    .executeTakeFirst();
  if (order?.kind !== 'recharge' || order.channel !== payment.channel)
    return refuse(`no ${payment.channel} recharge order ${payment.outTradeNo}`);
  // A delivery again of a payment already credited: acknowledged, nothing more.
  if (order.state === 'paid' && order.provider_txn_id === payment.providerTxnId) return { ok: true, credited: false };
  if (order.state !== 'pending') return refuse(`order ${order.id} is ${order.state}, not pending`);
  if (Number(order.amount) !== payment.amount)
    return refuse(`order ${order.id} is for ${order.amount} cents, the payment is ${payment.amount}`);
  let credited: { balance: number } | null;
  try {
    credited = await db.transaction().execute((trx) => creditPendingOrder(trx, order.id, payment.providerTxnId));
  } catch (error) {
    if (isUniqueViolation(error)) return refuse(`transaction ${payment.providerTxnId} already paid another order`);
    throw error;
  }
  if (credited) {
    log.info({ orderId: order.id, balance: credited.balance }, 'recharge order paid');
    return { ok: true, credited: true };
  }
  // Another delivery won the race: acknowledged when it was this payment.
  const now = await db
    .selectFrom('orders')
    .select(['state', 'provider_txn_id'])
    .where('id', '=', order.id)
    .executeTakeFirst();
  if (now?.state === 'paid' && now.provider_txn_id === payment.providerTxnId) return { ok: true, credited: false };
  return refuse(`order ${order.id} is ${now?.state ?? 'gone'}, not pending`);
}
