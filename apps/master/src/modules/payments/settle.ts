import { hasAccess, PERMISSIONS } from '@rampart/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError } from '../../errors.ts';
import { addToBalance, toMoney } from '../billing/ledger.ts';
import type { Notice, Notifier } from '../messages/notifier.ts';

/**
 * Paying a recharge order once its payment is verified: one transaction moves the order from
 * pending (or closed: a payment that arrived after the order was closed is money the customer paid,
 * and is credited, never dropped) to paid (a conditional UPDATE, so of many deliveries of one
 * notification exactly one wins), records the provider's transaction id (unique: one payment credits
 * one order) and credits the balance, writing the balance after it on the same order row (the
 * ledger's rule, ledger.ts).
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
    .where('kind', '=', 'recharge')
    .where('state', 'in', ['pending', 'closed'])
    .returning(['user_id', 'amount'])
    .executeTakeFirst();
  if (!order) return null;
  const balance = await addToBalance(trx, order.user_id, Number(order.amount));
  await trx.updateTable('orders').set({ balance_after: balance }).where('id', '=', orderId).execute();
  return { balance };
}

export interface VerifiedPayment {
  channel: 'wxpay' | 'alipay';
  outTradeNo: string;
  /** What the provider says was paid, in cents. */
  amount: number;
  providerTxnId: string;
}

export type Settlement = { ok: true; credited: boolean } | { ok: false; reason: string };

export interface SettleDeps {
  db: Kysely<Database>;
  notifier: Notifier;
  log: FastifyBaseLogger;
}

/** The enabled admins who act on money (admin:finance): they are told of payments that need a look. */
async function financeAdminIds(db: Kysely<Database>) {
  const admins = await db
    .selectFrom('users')
    .select(['id', 'access'])
    .where('type', '=', 1)
    .where('status', '=', 'enabled')
    .orderBy('id')
    .execute();
  return admins
    .filter((admin) => hasAccess(JSON.parse(admin.access) as string[], [PERMISSIONS.adminFinance]))
    .map((admin) => Number(admin.id));
}

/** Tells every admin:finance admin; a message that cannot be delivered is logged, the payment stands. */
export async function tellFinanceAdmins({ db, notifier, log }: SettleDeps, notice: Notice) {
  for (const userId of await financeAdminIds(db)) {
    try {
      await notifier.notify(userId, 'system', notice);
    } catch (error) {
      log.warn({ err: error, userId }, 'a payment notice to an admin was not delivered');
    }
  }
}

/**
 * Credits the order a verified payment is for, once; refuses (and logs) what does not match it.
 * A payment for a closed order reopens it as paid and tells the admins.
 */
export async function settleRecharge(deps: SettleDeps, payment: VerifiedPayment): Promise<Settlement> {
  const { db, log } = deps;
  const refuse = (reason: string): Settlement => {
    log.warn({ payment }, `payment notification refused: ${reason}`);
    return { ok: false, reason };
  };
  const order = await db
    .selectFrom('orders')
    .select(['id', 'user_id', 'kind', 'channel', 'state', 'amount', 'provider_txn_id'])
    .where('out_trade_no', '=', payment.outTradeNo)
    .executeTakeFirst();
  if (order?.kind !== 'recharge' || order.channel !== payment.channel)
    return refuse(`no ${payment.channel} recharge order ${payment.outTradeNo}`);
  // A delivery again of a payment already credited: acknowledged, nothing more.
  if (order.state === 'paid' && order.provider_txn_id === payment.providerTxnId) return { ok: true, credited: false };
  if (order.state !== 'pending' && order.state !== 'closed')
    return refuse(`order ${order.id} is ${order.state}, not pending`);
  if (Number(order.amount) !== payment.amount)
    return refuse(`order ${order.id} is for ${order.amount} cents, the payment is ${payment.amount}`);
  let credited: { balance: number } | null;
  try {
    credited = await db.transaction().execute((trx) => creditPendingOrder(trx, order.id, payment.providerTxnId));
  } catch (error) {
    if (isUniqueViolation(error)) return refuse(`transaction ${payment.providerTxnId} already paid another order`);
    // A balance at its largest: not acknowledged, so the provider delivers it again.
    if (error instanceof AppError && error.code === 'invalid_param') return refuse(error.message);
    throw error;
  }
  if (credited) {
    log.info({ orderId: order.id, balance: credited.balance }, 'recharge order paid');
    if (order.state === 'closed') {
      log.warn({ orderId: order.id, payment }, 'a payment arrived for a closed recharge order: credited');
      await tellFinanceAdmins(deps, {
        title: `A closed recharge order was paid: order ${order.id} credited`,
        body: `${payment.channel} payment ${payment.providerTxnId} of ${toMoney(payment.amount)} arrived for order ${order.id} (${payment.outTradeNo}, user ${order.user_id}) after it was closed. The order is reopened as paid and the balance credited (now ${toMoney(credited.balance)}); refund it from the orders page if the customer did not mean to pay.`,
      });
    }
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
