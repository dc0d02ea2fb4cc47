import { createSign, createVerify, type KeyObject } from 'node:crypto';
import type { AlipaySettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import { notifyUrl, rsaPrivateKey, rsaPublicKey } from './payment-settings.ts';
import type { CloseOutcome, ProviderRefusal, RefundOutcome, RefundRequest } from './wxpay.ts';

/**
 * Alipay open platform (RSA2): requests signed with the application key over the sorted parameter
 * string, answers and notifications verified with the Alipay public key.
 */

/** `k=v&…` of the non-empty parameters sorted by name, `sign` (and for notifications `sign_type`) left out. */
export function signingText(params: Record<string, string>, leaveOut: readonly string[] = ['sign']): string {
  return Object.keys(params)
    .filter((name) => !leaveOut.includes(name) && params[name] !== '' && params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

export const rsa2Sign = (text: string, key: KeyObject) =>
  createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');

export function rsa2Verifies(text: string, signature: string, key: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(text, 'utf8').verify(key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** Whether a notification's parameters are signed by Alipay. */
export function alipayNotificationVerifies(settings: AlipaySettings, params: Record<string, string>): boolean {
  const signature = params.sign;
  if (!signature || (params.sign_type !== undefined && params.sign_type !== 'RSA2')) return false;
  const key = rsaPublicKey('alipay_public_key', settings.alipay_public_key);
  return rsa2Verifies(signingText(params, ['sign', 'sign_type']), signature, key);
}

/** `yyyy-MM-dd HH:mm:ss` in Beijing time, as the gateway wants its timestamp. */
export function gatewayTime(now = Date.now()): string {
  return new Date(now + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The exact text of `"name": {…}` in a gateway answer: the signature covers those bytes, not a
 * re-serialization of them.
 */
export function rawMember(text: string, name: string): string | null {
  const start = text.indexOf(`"${name}"`);
  if (start < 0) return null;
  let at = text.indexOf('{', start + name.length + 2);
  if (at < 0) return null;
  const from = at;
  let depth = 0;
  let inString = false;
  for (; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return text.slice(from, at + 1);
  }
  return null;
}

/** A failure at the provider: `provider` lets a client word it in its own language. */
const unavailable = (detail: string) => new AppError('conflict', `Alipay: ${detail}`, { provider: 'alipay' });
const toYuan = (cents: number) => (cents / 100).toFixed(2);

type GatewayAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; refusal: ProviderRefusal };

/**
 * One signed gateway call. A refusal (a code other than 10000) is answered with its code and
 * message; a success must be signed by Alipay. No answer, or one that is not Alipay's, throws: what
 * happened there is unknown.
 */
async function gatewayCall(
  settings: AlipaySettings,
  method: string,
  biz: object,
  extra: Record<string, string> = {},
): Promise<GatewayAnswer> {
  const params: Record<string, string> = {
    app_id: settings.app_id,
    method,
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: gatewayTime(),
    version: '1.0',
    ...extra,
    biz_content: JSON.stringify(biz),
  };
  params.sign = rsa2Sign(signingText(params), rsaPrivateKey('app_private_key', settings.app_private_key));
  const publicKey = rsaPublicKey('alipay_public_key', settings.alipay_public_key);
  let response: Response;
  try {
    response = await fetch(settings.gateway_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
      body: new URLSearchParams(params).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw unavailable(`the gateway did not answer: ${error instanceof Error ? error.message : 'error'}`);
  }
  const text = await response.text();
  if (!response.ok) throw unavailable(`the gateway answered ${response.status}`);
  let answer: { sign?: unknown } & Record<string, unknown>;
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw unavailable('the answer is not JSON');
  }
  const member = `${method.replaceAll('.', '_')}_response`;
  const body = answer[member] as Record<string, unknown> | null | undefined;
  if (body === null || typeof body !== 'object') throw unavailable(`the answer has no ${member}`);
  if (body.code !== '10000') {
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return {
      ok: false,
      refusal: {
        code: (text(body.sub_code) || text(body.code) || 'UNKNOWN').slice(0, 64),
        message: [body.msg, body.sub_msg]
          .filter((part) => typeof part === 'string')
          .join(': ')
          .slice(0, 300),
      },
    };
  }
  const signed = rawMember(text, member);
  if (typeof answer.sign !== 'string' || signed === null || !rsa2Verifies(signed, answer.sign, publicKey))
    throw unavailable('the answer is not signed by Alipay');
  return { ok: true, body };
}

/** alipay.trade.precreate: the qr_code the payer scans. The answer's sign is verified first. */
export async function alipayPrecreate(
  settings: AlipaySettings,
  order: { out_trade_no: string; amount: number; description: string },
): Promise<string> {
  const result = await gatewayCall(
    settings,
    'alipay.trade.precreate',
    { out_trade_no: order.out_trade_no, total_amount: toYuan(order.amount), subject: order.description },
    { notify_url: notifyUrl(settings.notify_base_url, 'alipay') },
  );
  if (!result.ok) throw unavailable(`the gateway refused: ${result.refusal.code} ${result.refusal.message}`.trim());
  if (typeof result.body.qr_code !== 'string') throw unavailable('the answer has no qr_code');
  return result.body.qr_code;
}

/** alipay.trade.refund, idempotent on out_request_no (the same number refunds once). */
export async function alipayRefund(settings: AlipaySettings, refund: RefundRequest): Promise<RefundOutcome> {
  const result = await gatewayCall(settings, 'alipay.trade.refund', {
    out_trade_no: refund.out_trade_no,
    out_request_no: refund.refund_no,
    refund_amount: toYuan(refund.amount),
    ...(refund.reason && { refund_reason: refund.reason }),
  });
  if (!result.ok) return result;
  if (result.body.out_trade_no !== refund.out_trade_no) throw unavailable('the answer is for another trade');
  return { ok: true, provider_refund_id: null };
}

/** `12.34` (yuan, as Alipay writes amounts) in cents, or null when it is not such an amount. */
export function yuanToCents(text: string | undefined): number | null {
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text ?? '');
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * alipay.trade.close. A trade Alipay never opened (the code was not scanned) cannot be paid and
 * counts as closed; ACQ.TRADE_STATUS_ERROR (paid already) asks alipay.trade.query for the payment
 * to credit instead.
 */
export async function alipayCloseTrade(settings: AlipaySettings, outTradeNo: string): Promise<CloseOutcome> {
  const closed = await gatewayCall(settings, 'alipay.trade.close', { out_trade_no: outTradeNo });
  if (closed.ok || closed.refusal.code === 'ACQ.TRADE_NOT_EXIST') return { state: 'closed' };
  if (closed.refusal.code !== 'ACQ.TRADE_STATUS_ERROR') return { state: 'refused', refusal: closed.refusal };
  const queried = await gatewayCall(settings, 'alipay.trade.query', { out_trade_no: outTradeNo });
  if (!queried.ok) return { state: 'refused', refusal: queried.refusal };
  const { body } = queried;
  if (body.trade_status === 'TRADE_CLOSED') return { state: 'closed' };
  const amount = yuanToCents(typeof body.total_amount === 'string' ? body.total_amount : undefined);
  if (
    body.out_trade_no !== outTradeNo ||
    (body.trade_status !== 'TRADE_SUCCESS' && body.trade_status !== 'TRADE_FINISHED') ||
    typeof body.trade_no !== 'string' ||
    amount === null
  )
    throw unavailable(`the trade cannot be closed, and its query answers ${String(body.trade_status)}`);
  return { state: 'paid', payment: { providerTxnId: body.trade_no, amount } };
}
