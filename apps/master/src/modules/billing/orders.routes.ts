import {
  AdminRechargeBody,
  Envelope,
  IdParams,
  OrderList,
  OrderListQuery,
  OrderUpdate,
  OrderView,
  PERMISSIONS,
  RechargeOrderBody,
  UidParams,
} from '@rampart/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy, scopeOf } from '../../plugins/route-policy.ts';
import { closeAtProvider } from '../payments/close.service.ts';
import { checkChannelReady } from '../payments/payment-settings.ts';
import { ownerOf } from '../tenancy.ts';
import { credit, newTradeNo } from './ledger.ts';
import { listOrders, readOrder } from './orders.repository.ts';

const tags = ['finance'];
const notPendingRecharge = (order: OrderView) =>
  invalidParam('state', `order ${order.id} is a ${order.state} ${order.kind}, not a pending recharge`);
/** Everyone reaches their own orders; admin:finance opens every user's. */
const ownOrFinance = policy.tenant(PERMISSIONS.adminFinance);

/**
 * Orders: customers read their own (`/account/order`), admins holding admin:finance every one
 * (`/finance/order`, `/finance/recharge`) and adjust balances. A customer's POST opens an online
 * recharge, pending until the payment provider's verified notification credits it.
 */
export async function orderRoutes(app: App, { db, notifier }: AppContext) {
  app.get(
    '/v1/orders',
    {
      config: { policy: ownOrFinance },
      schema: { tags, querystring: OrderListQuery, response: { 200: Envelope(OrderList) } },
    },
    async (request) => ok(await listOrders(db, ownerOf(request), request.query)),
  );

  app.post(
    '/v1/orders',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        description:
          'Opens an online recharge order (pending); pay it through POST /v1/wxpay/preorder or /v1/alipay/preorder. A channel that is not enabled and set up (GET /v1/payment-channels) is refused with channel_unavailable and no order is made.',
        body: RechargeOrderBody,
        response: { 200: Envelope(OrderView) },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      await checkChannelReady(db, request.body.channel);
      const now = Date.now();
      const row = await db
        .insertInto('orders')
        .values({
          user_id: owner.userId,
          kind: 'recharge',
          channel: request.body.channel,
          state: 'pending',
          amount: request.body.amount,
          balance_after: null,
          description: `online recharge (${request.body.channel})`,
          user_package_id: null,
          coupon_id: null,
          out_trade_no: newTradeNo(now),
          provider_txn_id: null,
          created_at: now,
          paid_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return ok(await readOrder(db, owner, row.id));
    },
  );

  app.get(
    '/v1/orders/:id',
    { config: { policy: ownOrFinance }, schema: { tags, params: IdParams, response: { 200: Envelope(OrderView) } } },
    async (request) => ok(await readOrder(db, ownerOf(request), request.params.id)),
  );

  app.put(
    '/v1/orders/:id',
    {
      config: { policy: ownOrFinance },
      schema: {
        tags,
        description:
          'Closes a pending recharge, at its payment provider first (WeChat Pay close order, alipay.trade.close): it will not be paid. One the provider says is paid already is credited instead and answered as a conflict. The owner, or an admin holding admin:finance.',
        params: IdParams,
        body: OrderUpdate,
        response: { 200: Envelope(OrderView) },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      const order = await readOrder(db, owner, request.params.id);
      // A refund held while its provider is asked is settled by the refund call, never closed here.
      if (order.state !== 'pending' || order.kind !== 'recharge') throw notPendingRecharge(order);
      await closeAtProvider({ db, notifier, log: request.log }, order);
      const result = await db
        .updateTable('orders')
        .set({ state: 'closed', ...(request.body.description && { description: request.body.description }) })
        .where('id', '=', order.id)
        .where('state', '=', 'pending')
        .where('kind', '=', 'recharge')
        .executeTakeFirst();
      // Paid by a notification while the provider was asked.
      if (Number(result.numUpdatedRows) === 0) throw notPendingRecharge(await readOrder(db, owner, order.id));
      return ok(await readOrder(db, owner, order.id));
    },
  );

  app.delete(
    '/v1/orders/:id',
    {
      config: { policy: ownOrFinance },
      schema: { tags, description: 'Deletes a closed order; paid orders are the ledger and stay.', params: IdParams },
    },
    async (request) => {
      const order = await readOrder(db, ownerOf(request), request.params.id);
      if (order.state !== 'closed') {
        throw new AppError('conflict', `order ${order.id} is ${order.state}: only closed orders can be deleted`);
      }
      await db.deleteFrom('orders').where('id', '=', order.id).where('state', '=', 'closed').execute();
      return ok(null);
    },
  );

  app.post(
    '/v1/user/:uid/recharge',
    {
      config: { policy: policy.admin(PERMISSIONS.adminFinance) },
      schema: {
        tags,
        description:
          'Admin: credits (negative: debits, never below zero) a user’s balance, recorded as an adjustment order.',
        params: UidParams,
        body: AdminRechargeBody,
        response: { 200: Envelope(OrderView) },
      },
    },
    async (request) => {
      const { amount, description } = request.body;
      if (amount === 0) throw invalidParam('amount', 'must not be 0');
      const admin = caller(request).user;
      const user = await db.selectFrom('users').select('id').where('id', '=', request.params.uid).executeTakeFirst();
      if (!user) throw new AppError('not_found', `uid: user ${request.params.uid} does not exist`);
      const { orderId } = await db.transaction().execute((trx) =>
        credit(trx, user.id, amount, {
          kind: amount > 0 ? 'recharge' : 'adjustment',
          channel: 'admin',
          description: description || `by ${admin.username}`,
        }),
      );
      return ok(await readOrder(db, scopeOf(request), orderId));
    },
  );
}
