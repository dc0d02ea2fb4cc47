import type { OrderView } from '@rampart/contracts';
import { type AlipayKeys, type FakeAlipay, makeAlipayKeys } from '../../test/fake-alipay.ts';
import type { FakeWxpay } from '../../test/fake-wxpay.ts';
import type { TestApp } from '../../test/test-app.ts';

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

let offlineKeys: AlipayKeys | undefined;

/**
 * Alipay set up with keys made for the test and a gateway nobody answers at: enabled, customers can
 * open recharge orders with it; switched off again, closing them asks no provider.
 */
export async function switchAlipay(test: TestApp, adminToken: string, enabled: boolean) {
  offlineKeys ??= makeAlipayKeys();
  const body = {
    enabled,
    app_id: offlineKeys.appId,
    app_private_key: offlineKeys.appPrivateKeyPem,
    alipay_public_key: offlineKeys.alipayPublicKeyPem,
    gateway_url: 'http://127.0.0.1:9/gateway.do',
    notify_base_url: NOTIFY_BASE,
  };
  const saved = await test.call('PUT', ALIPAY_SETTINGS, { token: adminToken, body });
  if (saved.body.code !== 0) throw new Error(`alipay settings refused: ${saved.body.msg}`);
}

/** A pending Alipay recharge of `amount` cents opened by `token`, with Alipay off again afterwards. */
export async function openAlipayRecharge(test: TestApp, adminToken: string, token: string, amount: number) {
  await switchAlipay(test, adminToken, true);
  try {
    const opened = await test.call('POST', '/v1/orders', { token, body: { amount, channel: 'alipay' } });
    if (opened.body.code !== 0) throw new Error(`recharge refused: ${opened.body.msg}`);
    return opened.body.data as OrderView;
  } finally {
    await switchAlipay(test, adminToken, false);
  }
}
