import { createDecipheriv, createSign, createVerify, type KeyObject, randomBytes } from 'node:crypto';
import type { WxpaySettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';
import { notifyUrl, platformCertificate, rsaPrivateKey, rsaPublicKey } from './payment-settings.ts';

/**
 * WeChat Pay API v3: requests signed with the merchant key (WECHATPAY2-SHA256-RSA2048), answers and
 * notifications verified with the platform certificate (or platform public key), notification
 * resources decrypted with the API v3 key (AEAD_AES_256_GCM).
 */

/** Notifications and answers more than this far from now are refused (replays). */
export const WXPAY_CLOCK_SKEW_MS = 5 * 60 * 1000;

export interface WxpayPlatform {
  key: KeyObject;
  /** The certificate serial (upper-case hex) or the public key id the signatures name. */
  serial: string;
}

export function wxpayPlatform(settings: WxpaySettings): WxpayPlatform {
  if (settings.platform_public_key !== '') {
    return {
      key: rsaPublicKey('platform_public_key', settings.platform_public_key),
      serial: settings.platform_public_key_id,
    };
  }
  const cert = platformCertificate('platform_cert', settings.platform_cert);
  return { key: cert.publicKey, serial: cert.serialNumber.toUpperCase() };
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
export function wxpaySignatureProblem(
  platform: WxpayPlatform,
  headers: WxpaySignedHeaders,
  body: string,
  now = Date.now(),
): string | null {
  const { timestamp, nonce, signature, serial } = headers;
  if (!timestamp || !nonce || !signature || !serial) return 'the Wechatpay-* signature headers are missing';
  if (serial.toUpperCase() !== platform.serial.toUpperCase()) return `unknown Wechatpay-Serial ${serial.slice(0, 64)}`;
  if (!/^[0-9]{1,12}$/.test(timestamp) || Math.abs(now - Number(timestamp) * 1000) > WXPAY_CLOCK_SKEW_MS)
    return 'Wechatpay-Timestamp is more than 5 minutes off';
  let valid: boolean;
  try {
    valid = createVerify('RSA-SHA256')
      .update(`${timestamp}\n${nonce}\n${body}\n`)
      .verify(platform.key, Buffer.from(signature, 'base64'));
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

const unavailable = (detail: string) => new AppError('conflict', `WeChat Pay: ${detail}`);

/** Native pre-order: the code_url the payer scans. The answer's signature is verified first. */
export async function wxpayNativePreorder(
  settings: WxpaySettings,
  order: { out_trade_no: string; amount: number; description: string },
): Promise<string> {
  const path = '/v3/pay/transactions/native';
  const body = JSON.stringify({
    appid: settings.appid,
    mchid: settings.mchid,
    description: order.description,
    out_trade_no: order.out_trade_no,
    notify_url: notifyUrl(settings.notify_base_url, 'wxpay'),
    amount: { total: order.amount, currency: 'CNY' },
  });
  const platform = wxpayPlatform(settings);
  let response: Response;
  try {
    response = await fetch(`${settings.api_url.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: {
        authorization: wxpayAuthorization(settings, 'POST', path, body),
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw unavailable(`the API did not answer: ${error instanceof Error ? error.message : 'error'}`);
  }
  const text = await response.text();
  let answer: { code_url?: unknown; code?: unknown; message?: unknown } = {};
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    if (response.ok) throw unavailable('the answer is not JSON');
  }
  // A refusal is reported as it is; only an answer that is acted on must be signed.
  if (!response.ok) {
    const detail = `${String(answer.code ?? '')} ${String(answer.message ?? '')}`.trim().slice(0, 300);
    throw unavailable(`the API answered ${response.status}${detail ? `: ${detail}` : ''}`);
  }
  const problem = wxpaySignatureProblem(
    platform,
    signedHeaders((name) => response.headers.get(name) ?? undefined),
    text,
  );
  if (problem) throw unavailable(`the answer is not signed by WeChat Pay (${problem})`);
  if (typeof answer.code_url !== 'string') throw unavailable('the answer has no code_url');
  return answer.code_url;
}
