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
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { credit, newTradeNo } from './ledger.ts';
import { listOrders, readOrder } from './orders.repository.ts';

const tags = ['finance'];
const who = (request: FastifyRequest) => {
  const { user } = caller(request);
  return { id: user.id, isAdmin: user.type === 1 };
};

/**
 * Orders: customers read their own (`/account/order`), admins holding admin:finance every one
 * (`/finance/order`, `/finance/recharge`) and adjust balances. A customer's POST opens an online
 * recharge, pending until the payment provider's verified notification credits it.
 */
export async function orderRoutes(app: App, { db }: AppContext) {
  app.get(
    '/v1/orders',
    {
      config: { policy: policy.tenant() },
      schema: { tags, querystring: OrderListQuery, response: { 200: Envelope(OrderList) } },
    },
    async (request) => ok(await listOrders(db, who(request), request.query)),
  );

  app.post(
    '/v1/orders',
    {
      config: { policy: policy.tenant() },
      schema: {
        tags,
        description:
          'Opens an online recharge order (pending); pay it through POST /v1/wxpay/preorder or /v1/alipay/preorder.',
        body: RechargeOrderBody,
        response: { 200: Envelope(OrderView) },
      },
    },
    async (request) => {
      const { id } = who(request);
      const now = Date.now();
      const row = await db
        .insertInto('orders')
        .values({
          user_id: id,
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
      return ok(await readOrder(db, who(request), row.id));
    },
  );

  app.get(
    '/v1/orders/:id',
    { config: { policy: policy.tenant() }, schema: { tags, params: IdParams, response: { 200: Envelope(OrderView) } } },
    async (request) => ok(await readOrder(db, who(request), request.params.id)),
  );

  app.put(
    '/v1/orders/:id',
    {
      config: { policy: policy.tenant() },
      schema: {
        tags,
        description: 'Closes a pending order: it will never be credited. The owner or an admin.',
        params: IdParams,
        body: OrderUpdate,
        response: { 200: Envelope(OrderView) },
      },
    },
    async (request) => {
      const order = await readOrder(db, who(request), request.params.id);
      const result = await db
        .updateTable('orders')
        .set({ state: 'closed', ...(request.body.description && { description: request.body.description }) })
        .where('id', '=', order.id)
        .where('state', '=', 'pending')
        // A refund held while its provider is asked is settled by the refund call, never closed here.
        .where('kind', '=', 'recharge')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0)
        throw invalidParam('state', `order ${order.id} is a ${order.state} ${order.kind}, not a pending recharge`);
      return ok(await readOrder(db, who(request), order.id));
    },
  );

  app.delete(
    '/v1/orders/:id',
    {
      config: { policy: policy.tenant() },
      schema: { tags, description: 'Deletes a closed order; paid orders are the ledger and stay.', params: IdParams },
    },
    async (request) => {
      const order = await readOrder(db, who(request), request.params.id);
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
      return ok(await readOrder(db, { id: admin.id, isAdmin: true }, orderId));
    },
  );
}
