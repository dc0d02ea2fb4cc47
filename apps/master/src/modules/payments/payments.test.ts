import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { SECRET_MASK } from '@rampart/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type FakeAlipay, startFakeAlipay } from '../../test/fake-alipay.ts';
import { type FakeWxpay, startFakeWxpay } from '../../test/fake-wxpay.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { ALIPAY_SETTINGS, alipaySettings, NOTIFY_BASE, WXPAY_SETTINGS, wxpaySettings } from './payments.fixtures.ts';

interface Order {
  id: number;
  kind: string;
  state: string;
  amount: number;
  refund_of: number | null;
  balance_after: number | null;
  out_trade_no: string;
  provider_txn_id: string | null;
}

describe.each(DIALECTS)('online recharge on $dialect', (target) => {
  let wxpay: FakeWxpay;
  let alipay: FakeAlipay;
  let test: TestApp;
  let admin: string;
  let alice: string;
  beforeAll(async () => {
    [wxpay, alipay] = await Promise.all([startFakeWxpay(), startFakeAlipay()]);
  });
  afterAll(async () => {
    await Promise.all([wxpay?.close(), alipay?.close()]);
  });
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    data(await test.call('PUT', WXPAY_SETTINGS, { token: admin, body: wxpaySettings(wxpay) }));
    data(await test.call('PUT', ALIPAY_SETTINGS, { token: admin, body: alipaySettings(alipay) }));
  });
  afterEach(async () => {
    await test.close();
  });

  const openOrder = async (channel: 'wxpay' | 'alipay', amount: number) =>
    data<Order>(await test.call('POST', '/v1/orders', { token: alice, body: { amount, channel } }));
  const order = async (id: number) => data<Order>(await test.call('GET', `/v1/orders/${id}`, { token: alice }));
  const balance = async () => data<{ balance: number }>(await test.call('GET', '/v1/user', { token: alice })).balance;
  const postWxpay = async (notification: { body: string; headers: Record<string, string> }) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/wxpay/notify',
      headers: notification.headers,
      payload: notification.body,
    });
    return { status: response.statusCode, body: response.json() as { code: string; message?: string } };
  };
  const postAlipay = async (form: string) => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/alipay/notify',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      payload: form,
    });
    return { status: response.statusCode, body: response.body };
  };

  it('keeps the payment settings for admin:sys, secrets sealed at rest and never answered', async () => {
    const shown = data<Record<string, unknown>>(await test.call('GET', WXPAY_SETTINGS, { token: admin }));
    expect(shown).toMatchObject({
      mchid: wxpay.merchant.mchid,
      merchant_private_key: SECRET_MASK,
      api_v3_key: SECRET_MASK,
    });
    expect(data<Record<string, unknown>>(await test.call('GET', ALIPAY_SETTINGS, { token: admin }))).toMatchObject({
      app_private_key: SECRET_MASK,
      alipay_public_key: alipay.keys.alipayPublicKeyPem,
    });
    const stored = await test.database.db.selectFrom('configs').select('value').where('type', '=', 'payment').execute();
    expect(stored).toHaveLength(2);
    for (const { value } of stored) {
      expect(value).not.toContain('PRIVATE KEY');
      expect(value).not.toContain(wxpay.merchant.apiV3Key);
    }
    expect((await test.call('GET', WXPAY_SETTINGS, { token: alice })).body.code).toBe('forbidden');
    expect((await test.call('PUT', ALIPAY_SETTINGS, { token: alice, body: alipaySettings(alipay) })).body.code).toBe(
      'forbidden',
    );
    // Saved back with the masks, the secrets stay what they were: the pre-order still signs.
    data(await test.call('PUT', WXPAY_SETTINGS, { token: admin, body: { ...shown, enabled: true } }));
    const opened = await openOrder('wxpay', 100);
    data(await test.call('POST', '/v1/wxpay/preorder', { token: alice, body: { order_id: opened.id } }));
  });

  it('refuses payment settings that would not work, naming the field', async () => {
    const refused = async (path: string, body: object) => {
      const answer = await test.call('PUT', path, { token: admin, body });
      expect(answer.body.code, JSON.stringify(answer.body)).toBe('invalid_param');
      return answer.body.msg;
    };
    const good = wxpaySettings(wxpay);
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expect(await refused(WXPAY_SETTINGS, { ...good, merchant_private_key: 'not a key' })).toMatch(
      /^merchant_private_key/,
    );
    expect(await refused(WXPAY_SETTINGS, { ...good, merchant_private_key: weak.toString() })).toMatch(/2048 bits/);
    expect(await refused(WXPAY_SETTINGS, { ...good, api_v3_key: 'x'.repeat(31) })).toMatch(/^api_v3_key.*32/);
    expect(await refused(WXPAY_SETTINGS, { ...good, platform_cert: '-----BEGIN CERTIFICATE-----\nAAAA\n' })).toMatch(
      /^platform_cert/,
    );
    // Enabled, the platform certificates are downloaded before saving: a wrong key is named.
    expect(await refused(WXPAY_SETTINGS, { ...good, api_v3_key: 'k'.repeat(32) })).toMatch(
      /^api_v3_key: WeChat Pay certificates: certificate [0-9A-F]+ does not decrypt with the API v3 key/,
    );
    expect(await refused(WXPAY_SETTINGS, { ...good, merchant_serial_no: 'ABCDEF' })).toMatch(
      /^merchant_private_key: .*refused the request's signature \(SIGN_ERROR serial_no does not match\)/,
    );
    expect(wxpay.refusals.splice(0)).toEqual(['serial_no does not match']);
    expect(await refused(WXPAY_SETTINGS, { ...good, mchid: 'abc' })).toMatch(/^mchid/);
    expect(await refused(WXPAY_SETTINGS, { ...good, notify_base_url: 'ftp://x' })).toMatch(/^notify_base_url/);
    expect(await refused(WXPAY_SETTINGS, { ...good, api_url: 'nope' })).toMatch(/^api_url/);
    const alipayGood = alipaySettings(alipay);
    expect(await refused(ALIPAY_SETTINGS, { ...alipayGood, alipay_public_key: 'AAAA' })).toMatch(/^alipay_public_key/);
    expect(await refused(ALIPAY_SETTINGS, { ...alipayGood, app_private_key: '' })).toMatch(
      /^app_private_key.*required/,
    );
    expect(await refused(ALIPAY_SETTINGS, { ...alipayGood, gateway_url: 'gateway' })).toMatch(/^gateway_url/);
    // Switched off, the channel may be left half filled in.
    data(
      await test.call('PUT', ALIPAY_SETTINGS, {
        token: admin,
        body: { ...alipayGood, enabled: false, app_private_key: '' },
      }),
    );
  });

  it('pays a WeChat Pay order once: preorder, then the notification credits it, delivered 20 times at once', async () => {
    const opened = await openOrder('wxpay', 12_345);
    const preorder = data<{ code_url: string }>(
      await test.call('POST', '/v1/wxpay/preorder', { token: alice, body: { order_id: opened.id } }),
    );
    expect(preorder.code_url).toMatch(/^weixin:\/\/wxpay\//);
    expect(wxpay.refusals).toEqual([]);
    expect(wxpay.preorders.at(-1)).toEqual({
      out_trade_no: opened.out_trade_no,
      total: 12_345,
      notify_url: `${NOTIFY_BASE}/v1/wxpay/notify`,
    });
    const notification = wxpay.notification({
      out_trade_no: opened.out_trade_no,
      total: 12_345,
      transaction_id: `4200000${opened.id}${Date.now()}`,
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postWxpay(notification)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(answers[0]?.body).toEqual({ code: 'SUCCESS' });
    expect(await balance()).toBe(12_345);
    expect(await order(opened.id)).toMatchObject({
      state: 'paid',
      balance_after: 12_345,
      provider_txn_id: expect.any(String),
    });
    expect((await postWxpay(notification)).status).toBe(200);
    expect(await balance()).toBe(12_345);
    // Paid, the order takes no second pre-order.
    expect(
      (await test.call('POST', '/v1/wxpay/preorder', { token: alice, body: { order_id: opened.id } })).body.code,
    ).toBe('conflict');
  });

  it('credits nothing for a forged, stale, underpaid or unknown WeChat Pay notification', async () => {
    const opened = await openOrder('wxpay', 5_000);
    const payment = { out_trade_no: opened.out_trade_no, total: 5_000, transaction_id: `42000099${opened.id}` };
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const refused = [
      await postWxpay(wxpay.notification(payment, { signWith: forger })),
      await postWxpay(wxpay.notification(payment, { timestamp: Date.now() - 6 * 60_000 })),
      await postWxpay(wxpay.notification(payment, { apiV3Key: 'k'.repeat(32) })),
      await postWxpay(wxpay.notification({ ...payment, total: 4_999 })),
      await postWxpay(wxpay.notification({ ...payment, currency: 'USD' })),
      await postWxpay(wxpay.notification({ ...payment, trade_state: 'NOTPAY' })),
      await postWxpay(wxpay.notification({ ...payment, out_trade_no: 'unknown0000000000000000000000000' })),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([401, 401, 400, 400, 400, 400, 400]);
    for (const answer of refused) expect(answer.body.code).toBe('FAIL');
    // A body changed after signing.
    const genuine = wxpay.notification(payment);
    const tampered = await postWxpay({
      ...genuine,
      body: genuine.body.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCESS '),
    });
    expect(tampered.status).toBe(401);
    expect(await balance()).toBe(0);
    expect(await order(opened.id)).toMatchObject({ state: 'pending', balance_after: null, provider_txn_id: null });
    expect((await postWxpay(genuine)).body).toEqual({ code: 'SUCCESS' });
    expect(await balance()).toBe(5_000);
  });

  it('refuses a WeChat Pay answer not signed by the platform and pre-orders only the caller’s pending wxpay orders', async () => {
    const opened = await openOrder('wxpay', 100);
    wxpay.forgeAnswersWith = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    try {
      const answer = await test.call('POST', '/v1/wxpay/preorder', { token: alice, body: { order_id: opened.id } });
      expect(answer.body.code).toBe('conflict');
      expect(answer.body.msg).toMatch(/not signed by WeChat Pay/);
    } finally {
      wxpay.forgeAnswersWith = null;
    }
    const bob = await addUser(test, 'bob');
    expect(
      (await test.call('POST', '/v1/wxpay/preorder', { token: bob, body: { order_id: opened.id } })).body.code,
    ).toBe('not_found');
    const alipayOrder = await openOrder('alipay', 100);
    expect(
      (await test.call('POST', '/v1/wxpay/preorder', { token: alice, body: { order_id: alipayOrder.id } })).body.code,
    ).toBe('invalid_param');
  });

  it('verifies WeChat Pay with the platform public key and its id instead of the certificate', async () => {
    const keyId = 'PUB_KEY_ID_0119000001092025112500000000000001';
    const byKey = await startFakeWxpay({ merchant: wxpay.merchant, platform: wxpay.platform }, { publicKeyId: keyId });
    try {
      const publicKey = new X509Certificate(wxpay.platform.certPem).publicKey.export({ type: 'spki', format: 'pem' });
      data(
        await test.call('PUT', WXPAY_SETTINGS, {
          token: admin,
          body: {
            ...wxpaySettings(byKey),
            platform_cert: '',
            platform_public_key: publicKey.toString(),
            platform_public_key_id: keyId,
          },
        }),
      );
      const opened = await openOrder('wxpay', 700);
      data(await test.call('POST', '/v1/wxpay/preorder', { token: alice, body: { order_id: opened.id } }));
      const payment = { out_trade_no: opened.out_trade_no, total: 700, transaction_id: `4200007${opened.id}` };
      // Signed under the certificate's serial, the notification names a key the settings do not hold.
      expect((await postWxpay(wxpay.notification(payment))).status).toBe(401);
      expect((await postWxpay(byKey.notification(payment))).body).toEqual({ code: 'SUCCESS' });
      expect(await balance()).toBe(700);
    } finally {
      await byKey.close();
    }
  });

  it('pays an Alipay order once: precreate, then the notification credits it, delivered 20 times at once', async () => {
    const opened = await openOrder('alipay', 9_900);
    const preorder = data<{ qr_code: string }>(
      await test.call('POST', '/v1/alipay/preorder', { token: alice, body: { order_id: opened.id } }),
    );
    expect(preorder.qr_code).toMatch(/^https:\/\/qr\.alipay\.com\//);
    expect(alipay.refusals).toEqual([]);
    expect(alipay.precreates.at(-1)).toEqual({
      out_trade_no: opened.out_trade_no,
      total_amount: '99.00',
      notify_url: `${NOTIFY_BASE}/v1/alipay/notify`,
    });
    const form = alipay.notification({
      out_trade_no: opened.out_trade_no,
      total_amount: '99.00',
      trade_no: `2026112522001${opened.id}${Date.now()}`,
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postAlipay(form)));
    expect(answers.map((answer) => answer.body)).toEqual(Array(20).fill('success'));
    expect(await balance()).toBe(9_900);
    expect(await order(opened.id)).toMatchObject({ state: 'paid', balance_after: 9_900 });
  });

  it('credits nothing for a forged, underpaid, foreign or unknown Alipay notification', async () => {
    const opened = await openOrder('alipay', 1_050);
    const trade = { out_trade_no: opened.out_trade_no, total_amount: '10.50', trade_no: `20261125${opened.id}99` };
    const forger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const refused = [
      await postAlipay(alipay.notification(trade, { signWith: forger })),
      await postAlipay(alipay.notification({ ...trade, total_amount: '10.49' })),
      await postAlipay(alipay.notification({ ...trade, total_amount: '10.5x' })),
      await postAlipay(alipay.notification({ ...trade, app_id: '2021000000000001' })),
      await postAlipay(alipay.notification({ ...trade, out_trade_no: 'unknown0000000000000000000000000' })),
      await postAlipay(alipay.notification(trade).replace('total_amount=10.50', 'total_amount=0.01')),
      await postAlipay('not=a&signed=form'),
    ];
    expect(refused.map((answer) => answer.body)).toEqual(Array(7).fill('fail'));
    // Verified news of an unpaid trade is acknowledged and credits nothing.
    expect((await postAlipay(alipay.notification({ ...trade, trade_status: 'WAIT_BUYER_PAY' }))).body).toBe('success');
    expect(await balance()).toBe(0);
    expect(await order(opened.id)).toMatchObject({ state: 'pending', provider_txn_id: null });
    expect((await postAlipay(alipay.notification({ ...trade, total_amount: '10.5' }))).body).toBe('success');
    expect(await balance()).toBe(1_050);
  });

  /** A wxpay or alipay recharge of `cents`, pre-ordered and paid by its verified notification. */
  const paidOrder = async (channel: 'wxpay' | 'alipay', cents: number) => {
    const opened = await openOrder(channel, cents);
    data(await test.call('POST', `/v1/${channel}/preorder`, { token: alice, body: { order_id: opened.id } }));
    const txn = `42000${opened.id}${Date.now()}`;
    if (channel === 'wxpay') {
      const paid = await postWxpay(
        wxpay.notification({ out_trade_no: opened.out_trade_no, total: cents, transaction_id: txn }),
      );
      expect(paid.body).toEqual({ code: 'SUCCESS' });
    } else {
      const form = alipay.notification({
        out_trade_no: opened.out_trade_no,
        total_amount: (cents / 100).toFixed(2),
        trade_no: txn,
      });
      expect((await postAlipay(form)).body).toBe('success');
    }
    return opened;
  };
  const refund = (orderId: number, body: object, token = admin) =>
    test.call('POST', `/v1/orders/${orderId}/refunds`, { token, body });
  const refundsOf = async (orderId: number) =>
    test.database.db.selectFrom('orders').selectAll().where('refund_of', '=', orderId).execute();

  it('refunds a paid WeChat Pay recharge through the provider once per refund number, from the balance', async () => {
    const paid = await paidOrder('wxpay', 10_000);
    const body = { amount: 3_000, reason: 'paid twice', refund_no: `rf-wx-${paid.id}-1` };
    const made = data<Order>(await refund(paid.id, body));
    expect(made).toMatchObject({
      kind: 'refund',
      state: 'paid',
      amount: -3_000,
      balance_after: 7_000,
      refund_of: paid.id,
      out_trade_no: body.refund_no,
      provider_txn_id: expect.stringMatching(/^50000/),
    });
    expect(wxpay.refunds.filter((seen) => seen.out_trade_no === paid.out_trade_no)).toEqual([
      expect.objectContaining({ out_refund_no: body.refund_no, refund: 3_000, total: 10_000, reason: 'paid twice' }),
    ]);
    expect(await balance()).toBe(7_000);
    // Asked again (a retry), the refund made is answered and nothing moves.
    const calls = wxpay.refundCalls;
    expect(data<Order>(await refund(paid.id, body)).id).toBe(made.id);
    expect(wxpay.refundCalls).toBe(calls);
    expect(await balance()).toBe(7_000);
    expect(await refundsOf(paid.id)).toHaveLength(1);
    const reused = await refund(paid.id, { ...body, amount: 2_000 });
    expect(reused.body.code).toBe('invalid_param');
    expect(reused.body.msg).toMatch(/^refund_no: refund \d+ with this number is for 30\.00, not 20\.00/);
    // Only an admin refunds.
    expect((await refund(paid.id, { ...body, refund_no: 'rf-by-alice' }, alice)).body.code).toBe('forbidden');

    // More than is left of the order, or more than the balance: refused before the provider is asked.
    const tooMuch = await refund(paid.id, { amount: 7_001, refund_no: `rf-wx-${paid.id}-2` });
    expect(tooMuch.body.code).toBe('invalid_param');
    expect(tooMuch.body.msg).toBe(
      `amount: 70.01 is more than the 70.00 left to refund of order ${paid.id} (100.00, 30.00 refunded)`,
    );
    const aliceId = data<{ id: number }>(await test.call('GET', '/v1/user', { token: alice })).id;
    data(await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: admin, body: { amount: -6_000 } }));
    const short = await refund(paid.id, { amount: 2_000, refund_no: `rf-wx-${paid.id}-3` });
    expect(short.body.code).toBe('balance_insufficient');
    expect(short.body.msg).toBe(
      'amount: the balance (10.00) is less than the refund (20.00); a refund never takes a balance below zero',
    );
    expect(wxpay.refundCalls).toBe(calls);
    expect(await balance()).toBe(1_000);
    expect(await refundsOf(paid.id)).toHaveLength(1);
    // The rest of the balance can still go back.
    data(await refund(paid.id, { amount: 1_000, refund_no: `rf-wx-${paid.id}-4` }));
    expect(await balance()).toBe(0);
  });

  it('changes nothing when WeChat Pay refuses a refund, and reports its code and message', async () => {
    const paid = await paidOrder('wxpay', 5_000);
    const body = { amount: 5_000, refund_no: `rf-wx-${paid.id}-9` };
    wxpay.refuseRefunds = { status: 403, code: 'NOT_ENOUGH', message: '基本账户余额不足，请充值后重新发起' };
    try {
      const refused = await refund(paid.id, body);
      expect(refused.body.code).toBe('conflict');
      expect(refused.body.msg).toBe('WeChat Pay refused the refund: NOT_ENOUGH 基本账户余额不足，请充值后重新发起');
    } finally {
      wxpay.refuseRefunds = null;
    }
    expect(await balance()).toBe(5_000);
    expect(await refundsOf(paid.id)).toEqual([]);
    expect(data<Order>(await refund(paid.id, body))).toMatchObject({ state: 'paid', amount: -5_000, balance_after: 0 });
  });

  it('holds a refund whose answer is not WeChat Pay’s, and settles it when asked again with its number', async () => {
    const paid = await paidOrder('wxpay', 2_000);
    const body = { amount: 500, refund_no: `rf-wx-${paid.id}-h` };
    wxpay.forgeAnswersWith = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    try {
      const unknown = await refund(paid.id, body);
      expect(unknown.body.code).toBe('conflict');
      expect(unknown.body.msg).toMatch(/not signed by WeChat Pay.*5\.00 stays held from the balance/);
    } finally {
      wxpay.forgeAnswersWith = null;
    }
    expect(await balance()).toBe(1_500);
    expect(await refundsOf(paid.id)).toMatchObject([{ state: 'pending', amount: -500 }]);
    // A held refund is not closed as a pending recharge would be.
    const [held] = await refundsOf(paid.id);
    expect((await test.call('PUT', `/v1/orders/${held?.id}`, { token: admin, body: { state: 'closed' } })).status).toBe(
      400,
    );
    expect(data<Order>(await refund(paid.id, body))).toMatchObject({ id: held?.id, state: 'paid' });
    expect(wxpay.refunds.filter((seen) => seen.out_refund_no === body.refund_no)).toHaveLength(1);
    expect(await balance()).toBe(1_500);
  });

  it('refunds a paid Alipay recharge once per out_request_no, reports a refusal with its code, and refunds only paid online recharges', async () => {
    const paid = await paidOrder('alipay', 9_900);
    const body = { amount: 1_050, reason: 'service not used', refund_no: `rf-ali-${paid.id}-1` };
    alipay.refuseRefunds = { sub_code: 'ACQ.SELLER_BALANCE_NOT_ENOUGH', sub_msg: '卖家余额不足' };
    try {
      const refused = await refund(paid.id, body);
      expect(refused.body.code).toBe('conflict');
      expect(refused.body.msg).toBe(
        'Alipay refused the refund: ACQ.SELLER_BALANCE_NOT_ENOUGH Business Failed: 卖家余额不足',
      );
    } finally {
      alipay.refuseRefunds = null;
    }
    expect(await balance()).toBe(9_900);
    expect(await refundsOf(paid.id)).toEqual([]);

    const made = data<Order>(await refund(paid.id, body));
    expect(made).toMatchObject({ kind: 'refund', state: 'paid', amount: -1_050, balance_after: 8_850 });
    expect(data<Order>(await refund(paid.id, body)).id).toBe(made.id);
    expect(alipay.refunds.filter((seen) => seen.out_trade_no === paid.out_trade_no)).toEqual([
      {
        out_trade_no: paid.out_trade_no,
        out_request_no: body.refund_no,
        refund_amount: '10.50',
        refund_reason: 'service not used',
      },
    ]);
    expect(await balance()).toBe(8_850);
    const tooMuch = await refund(paid.id, { amount: 8_851, refund_no: `rf-ali-${paid.id}-2` });
    expect(tooMuch.body.msg).toMatch(/^amount: 88\.51 is more than the 88\.50 left to refund/);

    const pending = await openOrder('alipay', 100);
    const unpaid = await refund(pending.id, { amount: 100, refund_no: `rf-ali-${pending.id}-1` });
    expect(unpaid.body.msg).toBe(`id: order ${pending.id} is pending, not paid`);
    const aliceId = data<{ id: number }>(await test.call('GET', '/v1/user', { token: alice })).id;
    const adjusted = data<Order>(
      await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: admin, body: { amount: 100 } }),
    );
    expect((await refund(adjusted.id, { amount: 100, refund_no: 'rf-admin-1' })).body.msg).toMatch(
      /^id: order \d+ is not an online recharge/,
    );
    expect((await refund(paid.id, { amount: 1, refund_no: paid.out_trade_no })).body.msg).toBe(
      `refund_no: ${paid.out_trade_no} already numbers order ${paid.id}`,
    );
    expect((await refund(999_999, { amount: 1, refund_no: 'rf-none-1' })).status).toBe(404);
  });
});
