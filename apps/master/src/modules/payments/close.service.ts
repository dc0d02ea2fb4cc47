import { AppError } from '../../errors.ts';
import { toMoney } from '../billing/ledger.ts';
import { alipayCloseTrade } from './alipay.ts';
import { ALIPAY, readPaymentSettings, WXPAY } from './payment-settings.ts';
import { type SettleDeps, settleRecharge } from './settle.ts';
import type { CloseOutcome } from './wxpay.ts';
import { wxpayCloseOrder } from './wxpay.ts';
import { wxpayVerifier } from './wxpay-certs.ts';

const PROVIDERS = {
  wxpay: {
    name: 'WeChat Pay',
    closer: async ({ db, log }: SettleDeps, outTradeNo: string) => {
      const { value } = await readPaymentSettings(db, WXPAY);
      return value.enabled ? () => wxpayCloseOrder(value, wxpayVerifier(db, value, log), outTradeNo) : null;
    },
  },
  alipay: {
    name: 'Alipay',
    closer: async ({ db }: SettleDeps, outTradeNo: string) => {
      const { value } = await readPaymentSettings(db, ALIPAY);
      return value.enabled ? () => alipayCloseTrade(value, outTradeNo) : null;
    },
  },
} as const;

/**
 * Closes a pending online recharge at its provider before it is closed here, so that it can no
 * longer be paid. Answers when the provider closed it (or never opened it, or its channel is off:
 * a payment that still arrives is credited by settle.ts). Throws, changing nothing here, when the
 * provider refuses or does not answer (the order stays pending: close it again); and when the
 * provider says it is paid already, credits that payment and throws a conflict saying so.
 */
export async function closeAtProvider(
  deps: SettleDeps,
  order: { id: number; channel: string; out_trade_no: string; amount: number },
): Promise<void> {
  if (order.channel !== 'wxpay' && order.channel !== 'alipay') return;
  const provider = PROVIDERS[order.channel];
  const close = await provider.closer(deps, order.out_trade_no);
  if (!close) return;
  let outcome: CloseOutcome;
  try {
    outcome = await close();
  } catch (error) {
    const why = error instanceof Error ? error.message : 'no answer';
    throw new AppError('conflict', `${why}; order ${order.id} stays pending: close it again`);
  }
  if (outcome.state === 'closed') return;
  if (outcome.state === 'refused') {
    const { code, message } = outcome.refusal;
    throw new AppError(
      'conflict',
      `${provider.name} refused to close order ${order.id}: ${code}${message ? ` ${message}` : ''}; it stays pending`,
    );
  }
  const settled = await settleRecharge(deps, {
    channel: order.channel,
    outTradeNo: order.out_trade_no,
    ...outcome.payment,
  });
  if (!settled.ok)
    throw new AppError(
      'conflict',
      `order ${order.id} is paid at ${provider.name} but was not credited (${settled.reason}); it stays pending`,
    );
  throw new AppError(
    'conflict',
    `order ${order.id} was paid at ${provider.name} before it could be closed: ${toMoney(outcome.payment.amount)} is credited to the balance and the order is paid, not closed`,
  );
}
