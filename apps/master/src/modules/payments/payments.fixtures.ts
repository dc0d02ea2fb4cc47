import type { FakeAlipay } from '../../test/fake-alipay.ts';
import type { FakeWxpay } from '../../test/fake-wxpay.ts';

/** Payment settings pointing at the local fake providers, for the payment tests. */

export const WXPAY_SETTINGS = '/v1/configs/global-0-payment-wxpay';
export const ALIPAY_SETTINGS = '/v1/configs/global-0-payment-alipay';
export const NOTIFY_BASE = 'https://panel.example.com';

export const wxpaySettings = (wxpay: FakeWxpay) => ({
  enabled: true,
  mchid: wxpay.merchant.mchid,
  appid: wxpay.merchant.appid,
  merchant_serial_no: wxpay.merchant.serialNo,
  merchant_private_key: wxpay.merchant.privateKeyPem,
  api_v3_key: wxpay.merchant.apiV3Key,
  platform_cert: '',
  platform_public_key: '',
  platform_public_key_id: '',
  notify_base_url: NOTIFY_BASE,
  api_url: wxpay.url,
});

export const alipaySettings = (alipay: FakeAlipay) => ({
  enabled: true,
  app_id: alipay.keys.appId,
  app_private_key: alipay.keys.appPrivateKeyPem,
  alipay_public_key: alipay.keys.alipayPublicKeyPem,
  gateway_url: alipay.url,
  notify_base_url: NOTIFY_BASE,
});
