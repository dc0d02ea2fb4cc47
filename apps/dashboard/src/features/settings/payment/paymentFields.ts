import {
  type AlipaySettings,
  DEFAULT_ALIPAY_SETTINGS,
  DEFAULT_WXPAY_SETTINGS,
  SECRET_MASK,
  type WxpaySettings,
} from '@rampart/contracts';

export type PaymentProviderName = 'wxpay' | 'alipay';
export type PaymentSettings = WxpaySettings | AlipaySettings;
export type PaymentFormValues = Record<string, unknown>;

/** How a field is edited: PEM text is multi-line; secrets come back masked once saved. */
export type PaymentFieldKind = 'text' | 'url' | 'pem' | 'secret' | 'secretPem';

export interface PaymentField {
  name: string;
  kind: PaymentFieldKind;
  max: number;
  /** Needed while the channel is enabled (the server says the same). */
  required: boolean;
}

const field = (name: string, kind: PaymentFieldKind, max: number, required = false): PaymentField => ({
  name,
  kind,
  max,
  required,
});

/** Every field of WxpaySettings / AlipaySettings (packages/contracts/src/payments.ts) but `enabled`. */
export const PAYMENT_FIELDS: Record<PaymentProviderName, readonly PaymentField[]> = {
  wxpay: [
    field('mchid', 'text', 32, true),
    field('appid', 'text', 32, true),
    field('merchant_serial_no', 'text', 64, true),
    field('merchant_private_key', 'secretPem', 16_384, true),
    field('api_v3_key', 'secret', 64, true),
    field('platform_cert', 'pem', 16_384),
    field('platform_public_key', 'pem', 16_384),
    field('platform_public_key_id', 'text', 64),
    field('notify_base_url', 'url', 512, true),
    field('api_url', 'url', 512),
  ],
  alipay: [
    field('app_id', 'text', 32, true),
    field('app_private_key', 'secretPem', 16_384, true),
    field('alipay_public_key', 'pem', 16_384, true),
    field('gateway_url', 'url', 512),
    field('notify_base_url', 'url', 512, true),
  ],
};

export const PAYMENT_DEFAULTS: Record<PaymentProviderName, PaymentSettings> = {
  wxpay: DEFAULT_WXPAY_SETTINGS,
  alipay: DEFAULT_ALIPAY_SETTINGS,
};

export const isSecret = (kind: PaymentFieldKind) => kind === 'secret' || kind === 'secretPem';

/**
 * The PUT body of a provider's form: every field of its schema, text trimmed; a secret left as
 * the mask is sent as the mask, which keeps the stored one.
 */
export const paymentBody = (provider: PaymentProviderName, values: PaymentFormValues): PaymentSettings => {
  const body: Record<string, unknown> = { enabled: values.enabled === true };
  for (const { name, kind } of PAYMENT_FIELDS[provider]) {
    const text = typeof values[name] === 'string' ? values[name] : '';
    body[name] = isSecret(kind) && text === SECRET_MASK ? SECRET_MASK : text.trim();
  }
  return body as unknown as PaymentSettings;
};

/** Where the provider posts its notifications, as the master builds it. */
export const notifyUrl = (base: string, provider: PaymentProviderName) =>
  `${base.trim().replace(/\/+$/, '')}/v1/${provider}/notify`;
