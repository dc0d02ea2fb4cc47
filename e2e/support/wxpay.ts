import { type FakeWxpay, startFakeWxpay } from '../../apps/master/src/test/fake-wxpay.ts';
import { callApi } from './api.ts';
import type { RunningMaster } from './master.ts';

export const WXPAY_SETTINGS = '/v1/configs/global-0-payment-wxpay';

/** Saves the master's WeChat Pay settings with `wxpay`'s merchant, so it is a channel that works. */
export async function saveWxpaySettings(master: RunningMaster, adminToken: string, wxpay: FakeWxpay): Promise<void> {
  await callApi(master.baseUrl, 'PUT', WXPAY_SETTINGS, {
    token: adminToken,
    body: {
      enabled: true,
      mchid: wxpay.merchant.mchid,
      appid: wxpay.merchant.appid,
      merchant_serial_no: wxpay.merchant.serialNo,
      merchant_private_key: wxpay.merchant.privateKeyPem,
      api_v3_key: wxpay.merchant.apiV3Key,
      platform_cert: wxpay.platform.certPem,
      platform_public_key: '',
      platform_public_key_id: '',
      // WeChat Pay takes only https notify URLs; payNewestPreorder delivers to the master on the URL's path.
      notify_base_url: 'https://panel.example.com',
      api_url: wxpay.url,
    },
  });
}

/** The local WeChat Pay protocol server, and the master's WeChat Pay settings pointed at it. */
export async function configureWxpay(master: RunningMaster, adminToken: string): Promise<FakeWxpay> {
  const wxpay = await startFakeWxpay();
  await saveWxpaySettings(master, adminToken, wxpay);
  return wxpay;
}

/**
 * The payer scans the code of the newest pre-order of `total` cents and pays: WeChat Pay marks it
 * paid and posts the signed notification to the master's notify URL (as the pre-order named it).
 */
export async function payNewestPreorder(master: RunningMaster, wxpay: FakeWxpay, total: number): Promise<void> {
  const preorder = wxpay.preorders.findLast((seen) => seen.total === total);
  if (!preorder) throw new Error(`no WeChat Pay pre-order of ${total}: ${JSON.stringify(wxpay.preorders)}`);
  const transactionId = `4200${Date.now()}`;
  wxpay.pay(preorder.out_trade_no, transactionId);
  const notification = wxpay.notification({
    out_trade_no: preorder.out_trade_no,
    total,
    transaction_id: transactionId,
  });
  const notifyUrl = new URL(preorder.notify_url);
  const answer = await fetch(`${master.baseUrl}${notifyUrl.pathname}`, {
    method: 'POST',
    headers: notification.headers,
    body: notification.body,
  });
  const body = (await answer.json()) as { code: string };
  if (body.code !== 'SUCCESS') throw new Error(`the master refused the notification: ${JSON.stringify(body)}`);
}
