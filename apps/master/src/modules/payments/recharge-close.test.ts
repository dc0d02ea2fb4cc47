import { generateKeyPairSync } from 'node:crypto';
import { PERMISSIONS, type Permission } from '@rampart/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type FakeAlipay, startFakeAlipay } from '../../test/fake-alipay.ts';
import { type FakeWxpay, startFakeWxpay } from '../../test/fake-wxpay.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashPassword } from '../auth/passwords.ts';
import { insertUser } from '../users/users.repository.ts';
import { ALIPAY_SETTINGS, alipaySettings, WXPAY_SETTINGS, wxpaySettings } from './payments.fixtures.ts';

interface Order {
  id: number;
  state: string;
  amount: number;
  balance_after: number | null;
  out_trade_no: string;
  provider_txn_id: string | null;
}

describe.each(DIALECTS)('closing a pending recharge on $dialect', (target) => {
  let wxpay: FakeWxpay;
  let alipay: FakeAlipay;
  let test: TestApp;
  let root: string;
  let alice: string;
  beforeAll(async () => {
    [wxpay, alipay] = await Promise.all([startFakeWxpay(), startFakeAlipay()]);
  });
  afterAll(async () => {
    await Promise.all([wxpay?.close(), alipay?.close()]);
  });
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    root = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    data(await test.call('PUT', WXPAY_SETTINGS, { token: root, body: wxpaySettings(wxpay) }));
    data(await test.call('PUT', ALIPAY_SETTINGS, { token: root, body: alipaySettings(alipay) }));
  });
  afterEach(async () => {
    await test.close();
  });

  const addAdmin = async (username: string, codes: Permission[]) => {
    const row = await insertUser(
      test.database.db,
      { username, passwordHash: await hashPassword(`${username}-pass`), type: 1, access: codes },
      Date.now(),
    );
    return { id: row.id, token: await test.login(username, `${username}-pass`) };
  };
  /** A pending recharge of alice's, pre-ordered at its provider (its code shown, not yet scanned). */
  const preordered = async (channel: 'wxpay' | 'alipay', amount: number) => {
    const order = data<Order>(await test.call('POST', '/v1/orders', { token: alice, body: { amount, channel } }));
    data(await test.call('POST', `/v1/${channel}/preorder`, { token: alice, body: { order_id: order.id } }));
    return order;
  };
  const close = (id: number, token = alice) =>
    test.call('PUT', `/v1/orders/${id}`, { token, body: { state: 'closed' } });
  const order = async (id: number) => data<Order>(await test.call('GET', `/v1/orders/${id}`, { token: alice }));
  const balance = async () => data<{ balance: number }>(await test.call('GET', '/v1/user', { token: alice })).balance;
  const postAlipay = async (form: string) =>
    (
      await test.app.inject({
        method: 'POST',
        url: '/v1/alipay/notify',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        payload: form,
      })
    ).body;
  const postWxpay = async (notification: { body: string; headers: Record<string, string> }) =>
    (
      await test.app.inject({
        method: 'POST',
        url: '/v1/wxpay/notify',
        headers: notification.headers,
        payload: notification.body,
      })
    ).json() as { code: string };
  const messagesOf = (userId: number) =>
    test.database.db.selectFrom('messages').select(['type', 'title', 'body']).where('user_id', '=', userId).execute();

  it('closes an Alipay recharge at Alipay first, and credits a verified payment that still arrives, telling the finance admins', async () => {
    const finance = await addAdmin('finance-admin', [PERMISSIONS.adminFinance]);
    const nodeAdmin = await addAdmin('node-admin', [PERMISSIONS.adminNode]);
    const opened = await preordered('alipay', 700);
    expect(data<Order>(await close(opened.id)).state).toBe('closed');
    expect(alipay.closes).toContain(opened.out_trade_no);

    const tradeNo = `2026112522001${opened.id}${Date.now()}`;
    const late = alipay.notification({ out_trade_no: opened.out_trade_no, total_amount: '7.00', trade_no: tradeNo });
    expect(await postAlipay(late)).toBe('success');
    expect(await balance()).toBe(700);
    expect(await order(opened.id)).toMatchObject({ state: 'paid', balance_after: 700, provider_txn_id: tradeNo });
    // Delivered again, it is acknowledged and credits nothing more.
    expect(await postAlipay(late)).toBe('success');
    expect(await balance()).toBe(700);

    const rootId = data<{ id: number }>(await test.call('GET', '/v1/user', { token: root })).id;
    for (const admin of [rootId, finance.id]) {
      expect(await messagesOf(admin)).toEqual([
        {
          type: 'system',
          title: `A closed recharge order was paid: order ${opened.id} credited`,
          body: expect.stringContaining(`alipay payment ${tradeNo} of 7.00 arrived for order ${opened.id}`),
        },
      ]);
    }
    expect(await messagesOf(nodeAdmin.id)).toEqual([]);
  });

  it('closes a WeChat Pay recharge at WeChat Pay for an admin:finance admin, and credits a late payment', async () => {
    const finance = await addAdmin('finance-admin', [PERMISSIONS.adminFinance]);
    const opened = await preordered('wxpay', 1_250);
    expect(data<Order>(await close(opened.id, finance.token)).state).toBe('closed');
    expect(wxpay.closes).toContainEqual({ out_trade_no: opened.out_trade_no, mchid: wxpay.merchant.mchid });
    const payment = { out_trade_no: opened.out_trade_no, total: 1_250, transaction_id: `4200001${opened.id}` };
    expect(await postWxpay(wxpay.notification(payment))).toEqual({ code: 'SUCCESS' });
    expect(await balance()).toBe(1_250);
    expect(await order(opened.id)).toMatchObject({ state: 'paid', provider_txn_id: payment.transaction_id });
    expect(await messagesOf(finance.id)).toHaveLength(1);
  });

  it('credits instead of closing a recharge the provider says is paid', async () => {
    const byAlipay = await preordered('alipay', 990);
    const tradeNo = `2026112522009${byAlipay.id}`;
    alipay.pay(byAlipay.out_trade_no, tradeNo);
    const refused = await close(byAlipay.id);
    expect(refused.body.code).toBe('conflict');
    expect(refused.body.msg).toBe(
      `order ${byAlipay.id} was paid at Alipay before it could be closed: 9.90 is credited to the balance and the order is paid, not closed`,
    );
    expect(await order(byAlipay.id)).toMatchObject({ state: 'paid', balance_after: 990, provider_txn_id: tradeNo });
    // Its notification, arriving after, is acknowledged and credits nothing more.
    const form = alipay.notification({ out_trade_no: byAlipay.out_trade_no, total_amount: '9.90', trade_no: tradeNo });
    expect(await postAlipay(form)).toBe('success');
    expect(await balance()).toBe(990);

    const byWxpay = await preordered('wxpay', 10);
    const transactionId = `4200002${byWxpay.id}`;
    wxpay.pay(byWxpay.out_trade_no, transactionId);
    expect((await close(byWxpay.id)).body.msg).toMatch(/^order \d+ was paid at WeChat Pay before it could be closed/);
    expect(await order(byWxpay.id)).toMatchObject({ state: 'paid', provider_txn_id: transactionId });
    expect(await balance()).toBe(1_000);
  });

  it('keeps the recharge pending when the provider’s answer is not its own, and closes one never shown to the provider', async () => {
    const opened = await preordered('wxpay', 300);
    wxpay.forgeAnswersWith = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    try {
      const refused = await close(opened.id);
      expect(refused.body.code).toBe('conflict');
      expect(refused.body.msg).toMatch(/not signed by WeChat Pay.*order \d+ stays pending: close it again$/);
    } finally {
      wxpay.forgeAnswersWith = null;
    }
    expect((await order(opened.id)).state).toBe('pending');
    expect(data<Order>(await close(opened.id)).state).toBe('closed');

    const neverShown = data<Order>(
      await test.call('POST', '/v1/orders', { token: alice, body: { amount: 100, channel: 'alipay' } }),
    );
    expect(data<Order>(await close(neverShown.id)).state).toBe('closed');
    expect(alipay.closes).toContain(neverShown.out_trade_no);
  });
});
