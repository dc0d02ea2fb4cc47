import type { OrderRefundBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { toMoney } from '../billing/ledger.ts';
import { alipayRefund } from './alipay.ts';
import { ALIPAY, readPaymentSettings, WXPAY } from './payment-settings.ts';
import { completeRefund, findByNumber, findOrder, holdRefund, releaseRefund } from './refunds.repository.ts';
import { type RefundOutcome, type RefundRequest, wxpayRefund } from './wxpay.ts';
import { wxpayVerifier } from './wxpay-certs.ts';

const PROVIDERS = {
  wxpay: {
    name: 'WeChat Pay',
    refund: async (db: Kysely<Database>, request: RefundRequest) => {
      const { value } = await readPaymentSettings(db, WXPAY);
      return value.enabled ? () => wxpayRefund(value, wxpayVerifier(db, value), request) : null;
    },
  },
  alipay: {
    name: 'Alipay',
    refund: async (db: Kysely<Database>, request: RefundRequest) => {
      const { value } = await readPaymentSettings(db, ALIPAY);
      return value.enabled ? () => alipayRefund(value, request) : null;
    },
  },
} as const;

/**
 * Refunds part or all of a paid online recharge through its provider (admin). The money is held from
 * the balance first (never below zero, never more than the order), then the provider is asked with
 * the refund number: its success pays the refund order, its refusal releases the hold (nothing
 * changed) and is reported with its code and message. When the provider's answer is lost the hold
 * stays: the same call again (the same refund_no) asks again, and the provider refunds once per
 * number. A refund already made answers its order again. Answers the refund order's id.
 */
export async function refundOrder(db: Kysely<Database>, orderId: number, body: OrderRefundBody, now = Date.now()) {
  const order = await findOrder(db, orderId);
  if (!order) throw new AppError('not_found', `id: order ${orderId} does not exist`);
  if (order.kind !== 'recharge' || (order.channel !== 'wxpay' && order.channel !== 'alipay'))
    throw invalidParam('id', `order ${orderId} is not an online recharge (wxpay or alipay): only those are refunded`);
  if (order.state !== 'paid') throw invalidParam('id', `order ${orderId} is ${order.state}, not paid`);
  const provider = PROVIDERS[order.channel];

  let refund = await findByNumber(db, body.refund_no);
  if (refund && (refund.kind !== 'refund' || refund.refund_of !== order.id))
    throw invalidParam('refund_no', `${body.refund_no} already numbers order ${refund.id}`);
  if (refund && -refund.amount !== body.amount)
    throw invalidParam(
      'refund_no',
      `refund ${refund.id} with this number is for ${toMoney(-refund.amount)}, not ${toMoney(body.amount)}`,
    );
  if (refund?.state === 'paid') return refund.id;

  const request: RefundRequest = {
    out_trade_no: order.out_trade_no,
    refund_no: body.refund_no,
    amount: body.amount,
    total: order.amount,
    reason: body.reason ?? '',
  };
  const ask = await provider.refund(db, request);
  if (!ask) throw new AppError('conflict', `${provider.name} is not enabled: its refunds cannot be made`);
  refund ??= await holdRefund(
    db,
    order,
    {
      amount: body.amount,
      refund_no: body.refund_no,
      description: body.reason ? `refund of order ${order.id}: ${body.reason}` : `refund of order ${order.id}`,
    },
    now,
  );
  let outcome: RefundOutcome;
  try {
    outcome = await ask();
  } catch (error) {
    const why = error instanceof Error ? error.message : 'no answer';
    throw new AppError(
      'conflict',
      `${why}; the refund's outcome is unknown, so ${toMoney(body.amount)} stays held from the balance: call again with the same refund_no`,
    );
  }
  if (!outcome.ok) {
    await releaseRefund(db, refund.id);
    const { code, message } = outcome.refusal;
    throw new AppError('conflict', `${provider.name} refused the refund: ${code}${message ? ` ${message}` : ''}`);
  }
  await completeRefund(db, refund.id, outcome.provider_refund_id, Date.now());
  return refund.id;
}
