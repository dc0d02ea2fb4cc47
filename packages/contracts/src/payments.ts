import { type Static, Type } from 'typebox';
import { Id } from './fields.ts';

/**
 * Online recharge by WeChat Pay (API v3, Native) and Alipay (precreate): the admin's settings
 * (`/v1/configs/global-0-payment-{wxpay,alipay}`, secrets never answered once saved), the pre-orders
 * a customer opens for a pending recharge order, and the providers' notifications that credit it.
 */

const Pem = (description: string) => Type.String({ maxLength: 16_384, description });
const Url = Type.String({ maxLength: 512, description: 'an http(s) URL such as https://panel.example.com' });
/** Secret fields: write-only, answered as the mask once saved; sending the mask keeps the stored one. */
const Secret = (maxLength: number, description: string) => Type.String({ maxLength, description, writeOnly: true });

export const WXPAY_API_URL = 'https://api.mch.weixin.qq.com';
export const ALIPAY_GATEWAY_URL = 'https://openapi.alipay.com/gateway.do';

export const WxpaySettings = Type.Object(
  {
    enabled: Type.Boolean(),
    mchid: Type.String({ maxLength: 32, description: 'the merchant id: 1 to 32 digits' }),
    appid: Type.String({ maxLength: 32, description: 'the app id bound to the merchant, such as wx1234567890abcdef' }),
    merchant_serial_no: Type.String({
      maxLength: 64,
      description: 'the serial number of the merchant API certificate (hex)',
    }),
    merchant_private_key: Secret(16_384, 'the merchant API private key (PEM, RSA, at least 2048 bits)'),
    api_v3_key: Secret(64, 'the API v3 key: exactly 32 characters'),
    platform_cert: Pem(
      'optional: a WeChat Pay platform certificate (PEM) trusted beside those downloaded from GET /v3/certificates; merchants on platform public keys give the key and its id instead',
    ),
    platform_public_key: Pem('the WeChat Pay platform public key (PEM), instead of the certificate'),
    platform_public_key_id: Type.String({
      maxLength: 64,
      description: 'the id of the platform public key, PUB_KEY_ID_…',
    }),
    notify_base_url: Url,
    api_url: Type.String({ maxLength: 512, description: `the API base URL (${WXPAY_API_URL})` }),
  },
  { additionalProperties: false },
);
export type WxpaySettings = Static<typeof WxpaySettings>;

export const AlipaySettings = Type.Object(
  {
    enabled: Type.Boolean(),
    app_id: Type.String({ maxLength: 32, description: 'the application id: 1 to 32 digits' }),
    app_private_key: Secret(16_384, 'the application private key (PEM, RSA, at least 2048 bits)'),
    alipay_public_key: Pem('the Alipay public key (PEM, or its base64 body alone)'),
    gateway_url: Type.String({ maxLength: 512, description: `the gateway URL (${ALIPAY_GATEWAY_URL})` }),
    notify_base_url: Url,
  },
  { additionalProperties: false },
);
export type AlipaySettings = Static<typeof AlipaySettings>;

export const DEFAULT_WXPAY_SETTINGS: WxpaySettings = {
  enabled: false,
  mchid: '',
  appid: '',
  merchant_serial_no: '',
  merchant_private_key: '',
  api_v3_key: '',
  platform_cert: '',
  platform_public_key: '',
  platform_public_key_id: '',
  notify_base_url: '',
  api_url: WXPAY_API_URL,
};

export const DEFAULT_ALIPAY_SETTINGS: AlipaySettings = {
  enabled: false,
  app_id: '',
  app_private_key: '',
  alipay_public_key: '',
  gateway_url: ALIPAY_GATEWAY_URL,
  notify_base_url: '',
};

export const WXPAY_SECRETS = ['merchant_private_key', 'api_v3_key'] as const;
export const ALIPAY_SECRETS = ['app_private_key'] as const;

/** POST /v1/wxpay/preorder and /v1/alipay/preorder: the caller's pending recharge order to pay. */
export const PreorderBody = Type.Object({ order_id: Id }, { additionalProperties: false });
export type PreorderBody = Static<typeof PreorderBody>;

export const WxpayPreorder = Type.Object({
  /** weixin://wxpay/…: shown as a QR code the payer scans with WeChat. */
  code_url: Type.String(),
  out_trade_no: Type.String(),
  amount: Type.Integer(),
});
export type WxpayPreorder = Static<typeof WxpayPreorder>;

export const AlipayPreorder = Type.Object({
  /** https://qr.alipay.com/…: shown as a QR code the payer scans with Alipay. */
  qr_code: Type.String(),
  out_trade_no: Type.String(),
  amount: Type.Integer(),
});
export type AlipayPreorder = Static<typeof AlipayPreorder>;

/** The notification WeChat Pay posts (JSON; its resource is encrypted with the API v3 key). */
export const WxpayNotification = Type.Object({
  id: Type.String({ maxLength: 128 }),
  create_time: Type.Optional(Type.String({ maxLength: 64 })),
  event_type: Type.String({ maxLength: 64 }),
  resource_type: Type.Optional(Type.String({ maxLength: 64 })),
  summary: Type.Optional(Type.String({ maxLength: 256 })),
  resource: Type.Object({
    algorithm: Type.String({ maxLength: 64 }),
    ciphertext: Type.String({ maxLength: 65_536 }),
    nonce: Type.String({ maxLength: 64 }),
    associated_data: Type.Optional(Type.String({ maxLength: 256 })),
    original_type: Type.Optional(Type.String({ maxLength: 64 })),
  }),
});
export type WxpayNotification = Static<typeof WxpayNotification>;

/** What the master answers WeChat Pay: SUCCESS, or FAIL with the reason (it retries on a 4xx/5xx). */
export const WxpayNotifyAnswer = Type.Object({ code: Type.String(), message: Type.Optional(Type.String()) });

/** A WeChat Pay platform certificate the master verifies with: downloaded (GET /v3/certificates) or given in the settings. */
export const WxpayPlatformCert = Type.Object({
  /** The certificate serial number, upper-case hex: what Wechatpay-Serial names. */
  serial: Type.String(),
  /** Validity, ms since the epoch: WeChat Pay's effective_time and expire_time. */
  effective_at: Type.Integer(),
  expires_at: Type.Integer(),
  /** When it was last downloaded; null for the certificate given in the settings. */
  fetched_at: Type.Union([Type.Integer(), Type.Null()]),
  source: Type.Union([Type.Literal('downloaded'), Type.Literal('settings')]),
});
export type WxpayPlatformCert = Static<typeof WxpayPlatformCert>;

export const WxpayPlatformCertList = Type.Object({
  list: Type.Array(WxpayPlatformCert),
  total: Type.Integer(),
});
export type WxpayPlatformCertList = Static<typeof WxpayPlatformCertList>;

/** GET /v1/payment-channels: the online recharge channels a customer can pay with now. */
export const PaymentChannel = Type.Union([Type.Literal('wxpay'), Type.Literal('alipay')], {
  description: 'wxpay or alipay',
});
export type PaymentChannel = Static<typeof PaymentChannel>;
export const PaymentChannels = Type.Object({
  list: Type.Array(PaymentChannel, {
    description: 'the channels that are enabled and fully set up, in the order wxpay, alipay; empty: none',
  }),
});
export type PaymentChannels = Static<typeof PaymentChannels>;
