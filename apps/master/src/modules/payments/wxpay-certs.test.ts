import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import type { WxpayPlatformCert } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type FakeWxpay, startFakeWxpay } from '../../test/fake-wxpay.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

const WXPAY_SETTINGS = '/v1/configs/global-0-payment-wxpay';
const CERTS = `${WXPAY_SETTINGS}/certificates`;

describe.each(DIALECTS)('WeChat Pay platform certificates on $dialect', (target) => {
  let wxpay: FakeWxpay;
  let test: TestApp;
  let admin: string;
  let alice: string;
  const settings = () => ({
    enabled: true,
    mchid: wxpay.merchant.mchid,
    appid: wxpay.merchant.appid,
    merchant_serial_no: wxpay.merchant.serialNo,
    merchant_private_key: wxpay.merchant.privateKeyPem,
    api_v3_key: wxpay.merchant.apiV3Key,
    platform_cert: '',
    platform_public_key: '',
    platform_public_key_id: '',
    notify_base_url: 'https://panel.example.com',
    api_url: wxpay.url,
  });
  beforeEach(async () => {
    [wxpay, test] = await Promise.all([startFakeWxpay(), startTestApp(target, { background: false })]);
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    data(await test.call('PUT', WXPAY_SETTINGS, { token: admin, body: settings() }));
  });
  afterEach(async () => {
    await Promise.all([test?.close(), wxpay?.close()]);
  });

  const certificates = async () => data<{ list: WxpayPlatformCert[] }>(await test.call('GET', CERTS, { token: admin }));
  const balance = async () => data<{ balance: number }>(await test.call('GET', '/v1/user', { token: alice })).balance;
  /** A pending wxpay recharge of alice's and the payment WeChat Pay would notify for it. */
  const pendingPayment = async (total: number) => {
    const order = data<{ id: number; out_trade_no: string }>(
      await test.call('POST', '/v1/orders', { token: alice, body: { amount: total, channel: 'wxpay' } }),
    );
    return { out_trade_no: order.out_trade_no, total, transaction_id: `4200000${order.id}${Date.now()}` };
  };
  const postWxpay = async (notification: { body: string; headers: Record<string, string> }) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/wxpay/notify',
      headers: notification.headers,
      payload: notification.body,
    });
    return { status: response.statusCode, body: response.json() as { code: string; message?: string } };
  };
  const validity = (certPem: string) => {
    const cert = new X509Certificate(certPem);
    return { effective_at: new Date(cert.validFrom).getTime(), expires_at: new Date(cert.validTo).getTime() };
  };

  it('downloads the platform certificates when the settings are saved and shows their serial and validity, never a key', async () => {
    expect(wxpay.certificateCalls).toBe(1);
    expect(wxpay.refusals).toEqual([]);
    const shown = await test.call('GET', CERTS, { token: admin });
    expect(data(shown)).toEqual({
      list: [
        {
          serial: wxpay.platform.serial,
          ...validity(wxpay.platform.certPem),
          fetched_at: expect.any(Number),
          source: 'downloaded',
        },
      ],
      total: 1,
    });
    expect(JSON.stringify(shown.body)).not.toContain('BEGIN');
    expect((await test.call('GET', CERTS, { token: alice })).body.code).toBe('forbidden');
    expect((await test.call('POST', `${CERTS}/refresh`, { token: alice })).body.code).toBe('forbidden');
    const [stored] = await test.database.db.selectFrom('wxpay_platform_certs').selectAll().execute();
    expect(stored).toMatchObject({ mchid: wxpay.merchant.mchid, serial: wxpay.platform.serial });
    expect(stored?.cert_pem.trim()).toBe(wxpay.platform.certPem.trim());
    // Verified with the downloaded certificate: the pre-order's answer and the notification.
    const payment = await pendingPayment(1_200);
    const order = await test.database.db
      .selectFrom('orders')
      .select('id')
      .where('out_trade_no', '=', payment.out_trade_no)
      .executeTakeFirstOrThrow();
    data(await test.call('POST', '/v1/wxpay/preorder', { token: alice, body: { order_id: order.id } }));
    expect((await postWxpay(wxpay.notification(payment))).body).toEqual({ code: 'SUCCESS' });
    expect(await balance()).toBe(1_200);
    expect(wxpay.certificateCalls).toBe(1);
  });

  it('picks up a rotation with the scheduled refresh, before a notification names the new certificate', async () => {
    const old = wxpay.platform;
    const next = wxpay.rotate();
    const run = await test.call('POST', '/v1/tasks/scheduled/wxpay-certificates/run', { token: admin });
    expect(run.body.code, run.body.msg).toBe(0);
    await expect
      .poll(async () => {
        const list = data<{ list: { name: string; running: boolean; last_result: string | null }[] }>(
          await test.call('GET', '/v1/tasks/scheduled', { token: admin }),
        ).list;
        const task = list.find((entry) => entry.name === 'wxpay-certificates');
        return task && !task.running ? task.last_result : 'running';
      })
      .toBe('ok');
    expect(wxpay.certificateCalls).toBe(2);
    expect((await certificates()).list.map((cert) => cert.serial).sort()).toEqual([old.serial, next.serial].sort());
    const payment = await pendingPayment(300);
    expect((await postWxpay(wxpay.notification(payment))).body).toEqual({ code: 'SUCCESS' });
    expect(await balance()).toBe(300);
    expect(wxpay.certificateCalls).toBe(2);
  });

  it('downloads once when notifications name a certificate not yet known, and credits it once verified', async () => {
    const next = wxpay.rotate();
    const payment = await pendingPayment(800);
    const notification = wxpay.notification(payment);
    expect(notification.headers['wechatpay-serial']).toBe(next.serial);
    // Delivered several times at once, as WeChat Pay may: one download serves them all.
    const answers = await Promise.all(Array.from({ length: 8 }, () => postWxpay(notification)));
    expect(answers.map((answer) => answer.body)).toEqual(Array(8).fill({ code: 'SUCCESS' }));
    expect(wxpay.certificateCalls).toBe(2);
    expect(await balance()).toBe(800);
    expect((await certificates()).list.map((cert) => cert.serial)).toContain(next.serial);
  });

  it('refuses a notification of an unknown serial after one download, and a forged one of a known serial, crediting nothing', async () => {
    const payment = await pendingPayment(5_000);
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const unknown = wxpay.notification(payment, {
      signWith: forger,
      serial: '7A1F00D2C3B4A5968778695A4B3C2D1E0F102030',
    });
    const refused = await postWxpay(unknown);
    expect(refused).toEqual({
      status: 401,
      body: { code: 'FAIL', message: 'unknown Wechatpay-Serial 7A1F00D2C3B4A5968778695A4B3C2D1E0F102030' },
    });
    expect(wxpay.certificateCalls).toBe(2);
    // Asked again at once, the serial is refused without asking WeChat Pay again.
    expect((await postWxpay(unknown)).status).toBe(401);
    expect(wxpay.certificateCalls).toBe(2);
    const forged = await postWxpay(wxpay.notification(payment, { signWith: forger }));
    expect(forged).toEqual({ status: 401, body: { code: 'FAIL', message: 'the Wechatpay-Signature does not verify' } });
    expect(await balance()).toBe(0);
    const order = await test.database.db
      .selectFrom('orders')
      .select(['state', 'provider_txn_id'])
      .where('out_trade_no', '=', payment.out_trade_no)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ state: 'pending', provider_txn_id: null });
    expect((await postWxpay(wxpay.notification(payment))).body).toEqual({ code: 'SUCCESS' });
    expect(await balance()).toBe(5_000);
  });

  it('trusts a certificate only within its validity: one kept past its expiry is asked for again', async () => {
    await test.database.db
      .updateTable('wxpay_platform_certs')
      .set({ expires_at: Date.now() - 10 * 60_000 })
      .where('serial', '=', wxpay.platform.serial)
      .execute();
    const payment = await pendingPayment(400);
    expect((await postWxpay(wxpay.notification(payment))).body).toEqual({ code: 'SUCCESS' });
    expect(wxpay.certificateCalls).toBe(2);
    expect((await certificates()).list).toEqual([
      expect.objectContaining({ serial: wxpay.platform.serial, ...validity(wxpay.platform.certPem) }),
    ]);
  });

  it('keeps nothing from a certificate list whose answer is not signed by WeChat Pay', async () => {
    const before = await certificates();
    wxpay.rotate();
    wxpay.forgeAnswersWith = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const refused = await test.call('POST', `${CERTS}/refresh`, { token: admin });
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.msg).toMatch(/^WeChat Pay certificates: the answer is not signed by WeChat Pay/);
    expect(await certificates()).toEqual(before);
    wxpay.forgeAnswersWith = null;
    const refreshed = data<{ list: WxpayPlatformCert[] }>(
      await test.call('POST', `${CERTS}/refresh`, { token: admin }),
    );
    expect(refreshed.list).toHaveLength(2);
    // Switched off, there is nothing to download.
    data(await test.call('PUT', WXPAY_SETTINGS, { token: admin, body: { ...settings(), enabled: false } }));
    expect((await test.call('POST', `${CERTS}/refresh`, { token: admin })).body.msg).toBe('WeChat Pay is not enabled');
  });
});
