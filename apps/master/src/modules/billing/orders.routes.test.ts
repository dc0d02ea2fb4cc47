import { MAX_BALANCE_CENTS, PERMISSIONS, type Permission } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { hashPassword } from '../auth/passwords.ts';
import { openAlipayRecharge, switchAlipay } from '../payments/payments.fixtures.ts';
import { insertUser } from '../users/users.repository.ts';

interface Order {
  id: number;
  user_id: number;
  state: string;
  amount: number;
  balance_after: number | null;
}
interface OrderList {
  list: Order[];
  total: number;
}

describe.each(DIALECTS)('orders on $dialect', (target) => {
  let test: TestApp;
  let root: string;
  let alice: string;
  let aliceId: number;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    root = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
    aliceId = data<{ id: number }>(await test.call('GET', '/v1/user', { token: alice })).id;
  });
  afterEach(async () => {
    await test.close();
  });

  /** A signed-in administrator (type 1) holding only `codes`. */
  const addAdmin = async (username: string, codes: Permission[]) => {
    await insertUser(
      test.database.db,
      { username, passwordHash: await hashPassword(`${username}-pass`), type: 1, access: codes },
      Date.now(),
    );
    return test.login(username, `${username}-pass`);
  };
  const openOrder = async (token: string, amount = 700): Promise<Order> =>
    openAlipayRecharge(test, root, token, amount);
  const storedOrder = (id: number) =>
    test.database.db.selectFrom('orders').select(['id', 'state']).where('id', '=', id).executeTakeFirst();
  const balanceOf = async (userId: number) =>
    Number(
      (await test.database.db.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirstOrThrow())
        .balance,
    );

  it('keeps every user’s orders from a sub-admin without admin:finance: listed, read, closed and deleted as its own only', async () => {
    const pending = await openOrder(alice);
    const closed = await openOrder(alice, 800);
    data(await test.call('PUT', `/v1/orders/${closed.id}`, { token: alice, body: { state: 'closed' } }));
    data(await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: root, body: { amount: 500 } }));
    const nodeAdmin = await addAdmin('node-admin', [PERMISSIONS.adminNode]);
    const own = await openOrder(nodeAdmin, 100);

    const listed = data<OrderList>(await test.call('GET', `/v1/orders?user_id=${aliceId}`, { token: nodeAdmin }));
    expect(listed.list.map((order) => order.id)).toEqual([own.id]);
    expect(data<OrderList>(await test.call('GET', '/v1/orders', { token: nodeAdmin })).total).toBe(1);
    expect((await test.call('GET', `/v1/orders/${pending.id}`, { token: nodeAdmin })).status).toBe(404);
    const close = await test.call('PUT', `/v1/orders/${pending.id}`, { token: nodeAdmin, body: { state: 'closed' } });
    expect(close.status).toBe(404);
    expect((await test.call('DELETE', `/v1/orders/${closed.id}`, { token: nodeAdmin })).status).toBe(404);
    expect(await storedOrder(pending.id)).toEqual({ id: pending.id, state: 'pending' });
    expect(await storedOrder(closed.id)).toEqual({ id: closed.id, state: 'closed' });
    // Balances and refunds of other users need admin:finance too.
    const recharge = await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: nodeAdmin, body: { amount: 1 } });
    expect(recharge.status).toBe(403);
    expect(await balanceOf(aliceId)).toBe(500);
    // Its own orders it manages as any customer does.
    data(await test.call('PUT', `/v1/orders/${own.id}`, { token: nodeAdmin, body: { state: 'closed' } }));
    data(await test.call('DELETE', `/v1/orders/${own.id}`, { token: nodeAdmin }));
  });

  it('opens every user’s orders to a sub-admin holding admin:finance', async () => {
    const pending = await openOrder(alice);
    const closed = await openOrder(alice, 800);
    data(await test.call('PUT', `/v1/orders/${closed.id}`, { token: alice, body: { state: 'closed' } }));
    const finance = await addAdmin('finance-admin', [PERMISSIONS.adminFinance]);

    const listed = data<OrderList>(await test.call('GET', `/v1/orders?user_id=${aliceId}`, { token: finance }));
    expect(listed.list.map((order) => order.id).sort()).toEqual([pending.id, closed.id].sort());
    expect(data<Order>(await test.call('GET', `/v1/orders/${pending.id}`, { token: finance })).user_id).toBe(aliceId);
    const shut = data<Order>(
      await test.call('PUT', `/v1/orders/${pending.id}`, { token: finance, body: { state: 'closed' } }),
    );
    expect(shut.state).toBe('closed');
    data(await test.call('DELETE', `/v1/orders/${closed.id}`, { token: finance }));
    expect(await storedOrder(closed.id)).toBeUndefined();
    const credited = data<Order>(
      await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: finance, body: { amount: 250 } }),
    );
    expect(credited).toMatchObject({ user_id: aliceId, amount: 250, balance_after: 250 });
  });

  it('keeps customers to their own orders', async () => {
    const pending = await openOrder(alice);
    const bob = await addUser(test, 'bob');
    expect(data<OrderList>(await test.call('GET', `/v1/orders?user_id=${aliceId}`, { token: bob })).total).toBe(0);
    expect((await test.call('GET', `/v1/orders/${pending.id}`, { token: bob })).status).toBe(404);
    expect((await test.call('PUT', `/v1/orders/${pending.id}`, { token: bob, body: { state: 'closed' } })).status).toBe(
      404,
    );
    expect((await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: bob, body: { amount: 1 } })).status).toBe(
      403,
    );
    expect(await storedOrder(pending.id)).toEqual({ id: pending.id, state: 'pending' });
  });

  it('offers only the payment channels that are enabled and set up, and opens no order on another', async () => {
    const channels = async () =>
      data<{ list: string[] }>(await test.call('GET', '/v1/payment-channels', { token: alice })).list;
    expect(await channels()).toEqual([]);
    for (const channel of ['wxpay', 'alipay']) {
      const refused = await test.call('POST', '/v1/orders', { token: alice, body: { amount: 700, channel } });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'channel_unavailable', params: { channel } });
    }
    expect(await test.database.db.selectFrom('orders').select('id').execute()).toEqual([]);

    await switchAlipay(test, root, true);
    expect(await channels()).toEqual(['alipay']);
    const opened = data<Order>(
      await test.call('POST', '/v1/orders', { token: alice, body: { amount: 700, channel: 'alipay' } }),
    );
    expect(opened.state).toBe('pending');
    const wxpay = await test.call('POST', '/v1/orders', { token: alice, body: { amount: 700, channel: 'wxpay' } });
    expect(wxpay.body.code).toBe('channel_unavailable');
    // The pre-order of a channel that is off is refused the same way.
    await switchAlipay(test, root, false);
    expect(await channels()).toEqual([]);
    const preorder = await test.call('POST', '/v1/alipay/preorder', { token: alice, body: { order_id: opened.id } });
    expect(preorder.status).toBe(409);
    expect(preorder.body).toMatchObject({ code: 'channel_unavailable', params: { channel: 'alipay' } });
    expect((await test.database.db.selectFrom('orders').select('id').execute()).length).toBe(1);
  });

  it('refuses recharge amounts beyond a billion or not whole cents, naming the field', async () => {
    const refused = async (url: string, token: string, amount: number) => {
      const answer = await test.call('POST', url, { token, body: { amount, channel: 'alipay' } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.code).toBe('invalid_param');
      expect(answer.body.msg).toBe('body/amount: must be whole cents from 1 to 100000000000');
    };
    for (const amount of [100_000_000_001, 2 ** 53, 1.5, 0]) await refused('/v1/orders', alice, amount);
    const admin = `/v1/user/${aliceId}/recharge`;
    const adminBody = (amount: number) => ({ token: root, body: { amount } });
    for (const amount of [100_000_000_001, -(2 ** 53), 2 ** 53 + 2, 0.5, 0]) {
      const answer = await test.call('POST', admin, adminBody(amount));
      expect(answer.status, `${amount}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body.code).toBe('invalid_param');
      expect(answer.body.msg).toMatch(
        /^(body\/amount: must be whole cents from -100000000000 to 100000000000|amount: must not be 0)/,
      );
    }
    expect(await balanceOf(aliceId)).toBe(0);
    data(await test.call('POST', admin, adminBody(100_000_000_000)));
    expect(await balanceOf(aliceId)).toBe(100_000_000_000);
  });

  it('never credits a balance past the largest exact integer', async () => {
    const nearTop = MAX_BALANCE_CENTS - 50;
    await test.database.db.updateTable('users').set({ balance: nearTop }).where('id', '=', aliceId).execute();
    const before = data<OrderList>(await test.call('GET', `/v1/orders?user_id=${aliceId}`, { token: root })).total;
    const answer = await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: root, body: { amount: 100 } });
    expect(answer.body.code).toBe('invalid_param');
    expect(answer.body.msg).toBe(
      'amount: the balance (90071992547409.41) plus 1.00 would pass the largest balance, 90071992547409.91',
    );
    expect(await balanceOf(aliceId)).toBe(nearTop);
    expect(data<OrderList>(await test.call('GET', `/v1/orders?user_id=${aliceId}`, { token: root })).total).toBe(
      before,
    );
    // Up to the largest, and money taken away, it still moves.
    const topped = data<Order>(
      await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: root, body: { amount: 50 } }),
    );
    expect(topped.balance_after).toBe(MAX_BALANCE_CENTS);
    data(await test.call('POST', `/v1/user/${aliceId}/recharge`, { token: root, body: { amount: -50 } }));
    expect(await balanceOf(aliceId)).toBe(nearTop);
  });
});
