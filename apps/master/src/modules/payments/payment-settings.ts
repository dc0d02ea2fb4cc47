import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import {
  ALIPAY_SECRETS,
  type AlipaySettings,
  DEFAULT_ALIPAY_SETTINGS,
  DEFAULT_WXPAY_SETTINGS,
  SECRET_MASK,
  WXPAY_SECRETS,
  type WxpaySettings,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { openSetting, sealSetting } from '../settings/sealed-settings.ts';

/**
 * Payment settings live in the Config entity as `global-0-payment-wxpay` and `global-0-payment-alipay`;
 * their secret fields are sealed at rest (sealed-settings.ts) and answered as the mask once saved.
 */
export interface PaymentProvider<T extends object> {
  name: 'wxpay' | 'alipay';
  fallback: T;
  secrets: readonly (keyof T & string)[];
  check(value: T): void;
}

const KEY = { scope_name: 'global', scope_id: 0, type: 'payment' } as const;

export async function readPaymentSettings<T extends object>(db: Kysely<Database>, provider: PaymentProvider<T>) {
  const row = await db
    .selectFrom('configs')
    .select(['value', 'updated_at'])
    .where('scope_name', '=', KEY.scope_name)
    .where('scope_id', '=', KEY.scope_id)
    .where('type', '=', KEY.type)
    .where('name', '=', provider.name)
    .executeTakeFirst();
  const stored = row ? (JSON.parse(row.value) as Partial<T>) : {};
  const value = { ...provider.fallback, ...stored } as T;
  const fields = value as unknown as Record<string, unknown>;
  for (const name of provider.secrets) {
    const sealed = fields[name];
    if (typeof sealed === 'string') fields[name] = openSetting(db, sealed);
  }
  return { value, updatedAt: row?.updated_at ?? null };
}

/** The settings as the browser sees them: saved secrets replaced with the mask. */
export function maskPaymentSecrets<T extends object>(provider: PaymentProvider<T>, value: T): T {
  const shown = { ...value } as Record<string, unknown>;
  for (const name of provider.secrets) if (shown[name] !== '') shown[name] = SECRET_MASK;
  return shown as T;
}

/**
 * Checks and stores `sent`; a secret sent as the mask keeps the stored one. Secrets are stored sealed.
 * `prepare` sees the checked settings, secrets in clear, before they are stored, and may refuse them.
 */
export async function writePaymentSettings<T extends object>(
  db: Kysely<Database>,
  provider: PaymentProvider<T>,
  sent: T,
  prepare?: (value: T) => Promise<void>,
) {
  const { value: stored } = await readPaymentSettings(db, provider);
  const value = { ...sent } as Record<string, unknown>;
  for (const name of provider.secrets) if (value[name] === SECRET_MASK) value[name] = stored[name];
  provider.check(value as T);
  await prepare?.(value as T);
  for (const name of provider.secrets) value[name] = sealSetting(db, String(value[name] ?? ''));
  const text = JSON.stringify(value);
  const now = Date.now();
  await db
    .insertInto('configs')
    .values({ ...KEY, name: provider.name, value: text, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['scope_name', 'scope_id', 'type', 'name']).doUpdateSet({ value: text, updated_at: now }),
    )
    .execute();
}

export async function resetPaymentSettings(db: Kysely<Database>, provider: PaymentProvider<object>) {
  await db
    .deleteFrom('configs')
    .where('scope_name', '=', KEY.scope_name)
    .where('scope_id', '=', KEY.scope_id)
    .where('type', '=', KEY.type)
    .where('name', '=', provider.name)
    .execute();
}

/** An RSA private key of at least 2048 bits, or a refusal naming the field. */
export function rsaPrivateKey(field: string, pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw invalidParam(field, 'must be a private key in PEM (-----BEGIN PRIVATE KEY-----)');
  }
  checkRsa(field, key);
  return key;
}

/** An RSA public key (PEM, or the base64 DER body Alipay shows), or a refusal naming the field. */
export function rsaPublicKey(field: string, text: string): KeyObject {
  const body = text.trim();
  const pem = body.startsWith('-----') ? body : `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----`;
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw invalidParam(field, 'must be a public key in PEM (-----BEGIN PUBLIC KEY-----)');
  }
  checkRsa(field, key);
  return key;
}

export function platformCertificate(field: string, pem: string): X509Certificate {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem);
  } catch {
    throw invalidParam(field, 'must be a certificate in PEM (-----BEGIN CERTIFICATE-----)');
  }
  checkRsa(field, cert.publicKey);
  return cert;
}

function checkRsa(field: string, key: KeyObject) {
  if (key.asymmetricKeyType !== 'rsa') throw invalidParam(field, 'must be an RSA key');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 2048) throw invalidParam(field, `must be an RSA key of at least 2048 bits, not ${bits}`);
}

function httpUrl(field: string, text: string) {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidParam(field, 'must be an http(s) URL such as https://panel.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidParam(field, 'must start with https://');
  if (url.username || url.password) throw invalidParam(field, 'must not carry a user name or password');
}

const required = (field: string, value: string, enabled: boolean) => {
  if (enabled && value === '') throw invalidParam(field, 'is required while the channel is enabled');
  return value !== '';
};

function checkWxpay(value: WxpaySettings) {
  const on = value.enabled;
  if (required('mchid', value.mchid, on) && !/^[0-9]{1,32}$/.test(value.mchid))
    throw invalidParam('mchid', 'must be 1 to 32 digits');
  if (required('appid', value.appid, on) && !/^[A-Za-z0-9_]{1,32}$/.test(value.appid))
    throw invalidParam('appid', 'must be 1 to 32 letters, digits or _');
  if (
    required('merchant_serial_no', value.merchant_serial_no, on) &&
    !/^[0-9A-Fa-f]{1,64}$/.test(value.merchant_serial_no)
  )
    throw invalidParam('merchant_serial_no', 'must be the certificate serial number in hex');
  if (required('merchant_private_key', value.merchant_private_key, on))
    rsaPrivateKey('merchant_private_key', value.merchant_private_key);
  if (required('api_v3_key', value.api_v3_key, on) && Buffer.byteLength(value.api_v3_key) !== 32)
    throw invalidParam('api_v3_key', `must be exactly 32 characters, not ${Buffer.byteLength(value.api_v3_key)}`);
  if (value.platform_cert !== '') platformCertificate('platform_cert', value.platform_cert);
  if (value.platform_public_key !== '') {
    rsaPublicKey('platform_public_key', value.platform_public_key);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(value.platform_public_key_id))
      throw invalidParam('platform_public_key_id', 'is required with the platform public key (PUB_KEY_ID_…)');
  }
  if (required('notify_base_url', value.notify_base_url, on)) httpUrl('notify_base_url', value.notify_base_url);
  httpUrl('api_url', value.api_url);
}

function checkAlipay(value: AlipaySettings) {
  const on = value.enabled;
  if (required('app_id', value.app_id, on) && !/^[0-9]{1,32}$/.test(value.app_id))
    throw invalidParam('app_id', 'must be 1 to 32 digits');
  if (required('app_private_key', value.app_private_key, on)) rsaPrivateKey('app_private_key', value.app_private_key);
  if (required('alipay_public_key', value.alipay_public_key, on))
    rsaPublicKey('alipay_public_key', value.alipay_public_key);
  httpUrl('gateway_url', value.gateway_url);
  if (required('notify_base_url', value.notify_base_url, on)) httpUrl('notify_base_url', value.notify_base_url);
}

export const WXPAY: PaymentProvider<WxpaySettings> = {
  name: 'wxpay',
  fallback: DEFAULT_WXPAY_SETTINGS,
  secrets: WXPAY_SECRETS,
  check: checkWxpay,
};

export const ALIPAY: PaymentProvider<AlipaySettings> = {
  name: 'alipay',
  fallback: DEFAULT_ALIPAY_SETTINGS,
  secrets: ALIPAY_SECRETS,
  check: checkAlipay,
};

/** Where the provider posts its notifications for this master. */
export const notifyUrl = (base: string, provider: 'wxpay' | 'alipay') =>
  `${base.replace(/\/+$/, '')}/v1/${provider}/notify`;

/** Whether a channel can take payments: enabled, and its stored settings pass the same checks as when saved. */
export async function channelReady(db: Kysely<Database>, channel: 'wxpay' | 'alipay'): Promise<boolean> {
  return channel === 'wxpay' ? providerReady(db, WXPAY) : providerReady(db, ALIPAY);
}

async function providerReady<T extends { enabled: boolean }>(db: Kysely<Database>, provider: PaymentProvider<T>) {
  const { value } = await readPaymentSettings(db, provider);
  if (!value.enabled) return false;
  try {
    provider.check(value);
    return true;
  } catch {
    return false;
  }
}

/** The channels customers can pay a recharge with now. */
export async function readyChannels(db: Kysely<Database>): Promise<('wxpay' | 'alipay')[]> {
  const ready = await Promise.all(
    (['wxpay', 'alipay'] as const).map(async (name) => [name, await channelReady(db, name)] as const),
  );
  return ready.filter(([, on]) => on).map(([name]) => name);
}

const CHANNEL_NAMES = { wxpay: 'WeChat Pay', alipay: 'Alipay' } as const;

/** Refuses, as `channel_unavailable`, a channel that cannot take payments now. */
export async function checkChannelReady(db: Kysely<Database>, channel: 'wxpay' | 'alipay') {
  if (!(await channelReady(db, channel))) throw channelUnavailable(channel);
}

export const channelUnavailable = (channel: 'wxpay' | 'alipay') =>
  new AppError('channel_unavailable', `${CHANNEL_NAMES[channel]} is not enabled`, { channel });
