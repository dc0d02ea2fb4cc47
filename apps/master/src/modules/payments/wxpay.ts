import { createDecipheriv, createSign, createVerify, type KeyObject, randomBytes } from 'node:crypto';
import type { WxpaySettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import { notifyUrl, rsaPrivateKey } from './payment-settings.ts';

/**
 * WeChat Pay API v3: requests signed with the merchant key (WECHATPAY2-SHA256-RSA2048), answers and
 * notifications verified with the platform certificate their Wechatpay-Serial names (or the platform
 * public key; wxpay-certs.ts keeps them), notification resources decrypted with the API v3 key
 * (AEAD_AES_256_GCM).
 */

/** Notifications and answers more than this far from now are refused (replays). */
export const WXPAY_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * The platform keys answers and notifications are verified with, looked up by the serial their
 * Wechatpay-Serial header names (a certificate serial, or a public key id); null when unknown.
 */
export interface WxpayVerifier {
  keyFor(serial: string): Promise<KeyObject | null>;
}

export function wxpayAuthorization(
  settings: WxpaySettings,
  method: string,
  pathAndQuery: string,
  body: string,
  now = Date.now(),
) {
  const timestamp = String(Math.floor(now / 1000));
  const nonce = randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`)
    .sign(rsaPrivateKey('merchant_private_key', settings.merchant_private_key), 'base64');
  return `WECHATPAY2-SHA256-RSA2048 mchid="${settings.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${settings.merchant_serial_no}"`;
}

export interface WxpaySignedHeaders {
  timestamp: string | undefined;
  nonce: string | undefined;
  signature: string | undefined;
  serial: string | undefined;
}

export const signedHeaders = (get: (name: string) => string | undefined): WxpaySignedHeaders => ({
  timestamp: get('wechatpay-timestamp'),
  nonce: get('wechatpay-nonce'),
  signature: get('wechatpay-signature'),
  serial: get('wechatpay-serial'),
});

/** Why a signed answer or notification is not WeChat Pay's, or null when it is. */
export async function wxpaySignatureProblem(
  platform: WxpayVerifier,
  headers: WxpaySignedHeaders,
  body: string,
  now = Date.now(),
): Promise<string | null> {
  const { timestamp, nonce, signature, serial } = headers;
  if (!timestamp || !nonce || !signature || !serial) return 'the Wechatpay-* signature headers are missing';
  // Checked before the serial, so that a stale or malformed message never makes the master ask WeChat Pay.
  if (!/^[0-9]{1,12}$/.test(timestamp) || Math.abs(now - Number(timestamp) * 1000) > WXPAY_CLOCK_SKEW_MS)
    return 'Wechatpay-Timestamp is more than 5 minutes off';
  if (!/^[0-9A-Za-z_-]{1,64}$/.test(serial)) return 'Wechatpay-Serial is malformed';
  const key = await platform.keyFor(serial);
  if (!key) return `unknown Wechatpay-Serial ${serial}`;
  let valid: boolean;
  try {
    valid = createVerify('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .verify(key, Buffer.from(signature, 'base64'));
  } catch {
    valid = false;
  }
  return valid ? null : 'the Wechatpay-Signature does not verify';
}

/** The decrypted `resource` of a notification (AEAD_AES_256_GCM: the tag is the ciphertext's last 16 bytes). */
export function decryptResource(
  apiV3Key: string,
  resource: { algorithm: string; ciphertext: string; nonce: string; associated_data?: string | undefined },
): string {
  if (resource.algorithm !== 'AEAD_AES_256_GCM') throw new Error(`unknown algorithm ${resource.algorithm}`);
  const sealed = Buffer.from(resource.ciphertext, 'base64');
  if (sealed.length <= 16) throw new Error('the ciphertext is too short');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(resource.nonce));
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? ''));
  return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString('utf8');
}

/** A failure at the provider: `provider` lets a client word it in its own language. */
const unavailable = (detail: string) => new AppError('conflict', `WeChat Pay: ${detail}`, { provider: 'wxpay' });

/** A definite refusal by the provider: its error code and message (nothing happened there). */
export interface ProviderRefusal {
  code: string;
  message: string;
}

type WxpayAnswer = { ok: true; answer: Record<string, unknown> } | { ok: false; refusal: ProviderRefusal };

/** What an API v3 call answered: status, the body as sent (the signature covers these bytes), headers. */
export interface WxpayResponse {
  status: number;
  text: string;
  header(name: string): string | undefined;
}

/** One API v3 call signed with the merchant key; throws only when no answer came. */
export async function wxpayRequest(
  settings: WxpaySettings,
  method: 'GET' | 'POST',
  path: string,
  body = '',
): Promise<WxpayResponse> {
  const response = await fetch(`${settings.api_url.replace(/\/+$/, '')}${path}`, {
    method,
    headers: {
      authorization: wxpayAuthorization(settings, method, path, body),
      accept: 'application/json',
      ...(method === 'POST' && { 'content-type': 'application/json' }),
    },
    ...(method === 'POST' && { body }),
    redirect: 'error',
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, text, header: (name) => response.headers.get(name) ?? undefined };
}

/**
 * One signed call to the API v3. A refusal (a 4xx/5xx answer with its code and message) is answered
 * as it is; an answer that is acted on (an empty 204 too) must be signed by the platform. No answer,
 * or one that is not WeChat Pay's, throws: what happened there is unknown.
 */
async function wxpayCall(
  settings: WxpaySettings,
  platform: WxpayVerifier,
  method: 'GET' | 'POST',
  path: string,
  request?: object,
): Promise<WxpayAnswer> {
  let response: WxpayResponse;
  try {
    response = await wxpayRequest(settings, method, path, request === undefined ? '' : JSON.stringify(request));
  } catch (error) {
    throw unavailable(`the API did not answer: ${error instanceof Error ? error.message : 'error'}`);
  }
  const { text } = response;
  const ok = response.status >= 200 && response.status < 300;
  let answer: Record<string, unknown> = {};
  try {
    if (text !== '' || !ok) answer = JSON.parse(text) as typeof answer;
  } catch {
    if (ok) throw unavailable('the answer is not JSON');
  }
  if (!ok) {
    return {
      ok: false,
      refusal: {
        code: String(answer.code ?? `HTTP_${response.status}`).slice(0, 64),
        message: String(answer.message ?? '').slice(0, 300),
      },
    };
  }
  const problem = await wxpaySignatureProblem(platform, signedHeaders(response.header), text);
  if (problem) throw unavailable(`the answer is not signed by WeChat Pay (${problem})`);
  return { ok: true, answer };
}

const wxpayPost = (settings: WxpaySettings, platform: WxpayVerifier, path: string, request: object) =>
  wxpayCall(settings, platform, 'POST', path, request);

const refusalText = (refusal: ProviderRefusal) => `${refusal.code} ${refusal.message}`.trim();

/** Native pre-order: the code_url the payer scans. The answer's signature is verified first. */
export async function wxpayNativePreorder(
  settings: WxpaySettings,
  platform: WxpayVerifier,
  order: { out_trade_no: string; amount: number; description: string },
): Promise<string> {
  const result = await wxpayPost(settings, platform, '/v3/pay/transactions/native', {
    appid: settings.appid,
    mchid: settings.mchid,
    description: order.description,
    out_trade_no: order.out_trade_no,
    notify_url: notifyUrl(settings.notify_base_url, 'wxpay'),
    amount: { total: order.amount, currency: 'CNY' },
  });
  if (!result.ok) throw unavailable(`the API refused: ${refusalText(result.refusal)}`);
  if (typeof result.answer.code_url !== 'string') throw unavailable('the answer has no code_url');
  return result.answer.code_url;
}

export interface RefundRequest {
  out_trade_no: string;
  /** The refund number: the provider refunds once per number, however often it is asked. */
  refund_no: string;
  /** Cents to give back, and the order's whole amount. */
  amount: number;
  total: number;
  reason: string;
}

/** What the provider said of a refund: accepted (with its refund id where it gives one) or refused. */
export type RefundOutcome = { ok: true; provider_refund_id: string | null } | { ok: false; refusal: ProviderRefusal };

/**
 * A refund (POST /v3/refund/domestic/refunds), idempotent on out_refund_no. SUCCESS and PROCESSING
 * (the money is on its way back) are accepted; CLOSED and ABNORMAL are refusals.
 */
export async function wxpayRefund(
  settings: WxpaySettings,
  platform: WxpayVerifier,
  refund: RefundRequest,
): Promise<RefundOutcome> {
  const result = await wxpayPost(settings, platform, '/v3/refund/domestic/refunds', {
    out_trade_no: refund.out_trade_no,
    out_refund_no: refund.refund_no,
    ...(refund.reason && { reason: refund.reason }),
    amount: { refund: refund.amount, total: refund.total, currency: 'CNY' },
  });
  if (!result.ok) return result;
  const { answer } = result;
  if (answer.out_refund_no !== refund.refund_no) throw unavailable('the answer is for another refund');
  if (answer.status !== 'SUCCESS' && answer.status !== 'PROCESSING')
    return { ok: false, refusal: { code: String(answer.status ?? 'UNKNOWN'), message: 'the refund was not made' } };
  return { ok: true, provider_refund_id: typeof answer.refund_id === 'string' ? answer.refund_id : null };
}

/**
 * What a provider said when asked to close a pending order: closed (or never opened there, so it
 * cannot be paid), paid already (with the payment, to be credited instead), or a refusal.
 */
export type CloseOutcome =
  | { state: 'closed' }
  | { state: 'paid'; payment: { providerTxnId: string; amount: number } }
  | { state: 'refused'; refusal: ProviderRefusal };

/**
 * Closes an order (POST /v3/pay/transactions/out-trade-no/{out_trade_no}/close, 204 when closed).
 * ORDERPAID ("treat it as a paid trade") asks the order (GET …/out-trade-no/{out_trade_no}) for the
 * payment to credit; an order WeChat Pay never saw cannot be paid and counts as closed.
 */
export async function wxpayCloseOrder(
  settings: WxpaySettings,
  platform: WxpayVerifier,
  outTradeNo: string,
): Promise<CloseOutcome> {
  const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}`;
  const closed = await wxpayPost(settings, platform, `${path}/close`, { mchid: settings.mchid });
  if (closed.ok || closed.refusal.code === 'ORDER_NOT_EXIST' || closed.refusal.code === 'ORDER_CLOSED')
    return { state: 'closed' };
  if (closed.refusal.code !== 'ORDERPAID') return { state: 'refused', refusal: closed.refusal };
  const queried = await wxpayCall(settings, platform, 'GET', `${path}?mchid=${encodeURIComponent(settings.mchid)}`);
  if (!queried.ok) return { state: 'refused', refusal: queried.refusal };
  const { answer } = queried;
  const amount = answer.amount as { total?: unknown; currency?: unknown } | undefined;
  if (
    answer.out_trade_no !== outTradeNo ||
    answer.trade_state !== 'SUCCESS' ||
    typeof answer.transaction_id !== 'string' ||
    amount?.currency !== 'CNY' ||
    typeof amount.total !== 'number' ||
    !Number.isSafeInteger(amount.total)
  )
    throw unavailable(`the order is said to be paid, but its query answers ${String(answer.trade_state)}`);
  return { state: 'paid', payment: { providerTxnId: answer.transaction_id, amount: amount.total } };
}
