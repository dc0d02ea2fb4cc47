import type { OrderListQuery, OrderView } from '@rampart/contracts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OrdersTable } from '../../db/schema-packages.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { Owner } from '../tenancy.ts';

export type OrderRow = Selectable<OrdersTable>;
type Row = OrderRow & { username: string; coupon: string | null; package_name: string | null };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentOrder(row: Row): OrderView {
  return {
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    kind: row.kind,
    channel: row.channel,
    state: row.state,
    amount: row.amount,
    balance_after: row.balance_after,
    description: row.description,
    user_package_id: row.user_package_id,
    package_name: row.package_name,
    coupon: row.coupon,
    out_trade_no: row.out_trade_no,
    provider_txn_id: row.provider_txn_id,
    created_at: new Date(row.created_at).toISOString(),
    paid_at: iso(row.paid_at),
    refund_of: row.refund_of,
  };
}

const time = (field: string, text: string | undefined) => {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw invalidParam(field, 'an ISO 8601 time');
  return ms;
};

/** The orders the owner reaches: their own, or for an admin scope every user's (`user_id` narrows them). */
function scopedOrders(db: Kysely<Database>, owner: Owner, query: OrderListQuery) {
  const from = time('from', query.from);
  const to = time('to', query.to);
  const userId = owner.kind === 'admin' ? query.user_id : owner.userId;
  return db
    .selectFrom('orders')
    .$if(userId !== undefined, (qb) => qb.where('orders.user_id', '=', userId ?? 0))
    .$if(query.kind !== undefined, (qb) => qb.where('orders.kind', '=', query.kind ?? ''))
    .$if(query.channel !== undefined, (qb) => qb.where('orders.channel', '=', query.channel ?? ''))
    .$if(query.state !== undefined, (qb) => qb.where('orders.state', '=', query.state ?? ''))
    .$if(from !== undefined, (qb) => qb.where('orders.created_at', '>=', from ?? 0))
    .$if(to !== undefined, (qb) => qb.where('orders.created_at', '<=', to ?? 0));
}

/** A page of orders, newest first, and the sums of credits and debits over the whole filter. */
export async function listOrders(db: Kysely<Database>, owner: Owner, query: OrderListQuery) {
  const page = query.page ?? 1;
  const limit = query.limit ?? 20;
  const scoped = scopedOrders(db, owner, query);
  const [rows, totals] = await Promise.all([
    scoped
      .innerJoin('users', 'users.id', 'orders.user_id')
      .leftJoin('coupons', 'coupons.id', 'orders.coupon_id')
      .leftJoin('user_packages', 'user_packages.id', 'orders.user_package_id')
      .selectAll('orders')
      .select(['users.username', 'coupons.code as coupon', 'user_packages.name as package_name'])
      .orderBy('orders.id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    scoped
      .select([
        sql<number | string>`count(*)`.as('n'),
        sql<
          number | string | null
        >`sum(case when orders.amount > 0 and orders.state = 'paid' then orders.amount else 0 end)`.as('credit'),
        sql<
          number | string | null
        >`sum(case when orders.amount < 0 and orders.state = 'paid' then -orders.amount else 0 end)`.as('debit'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map(presentOrder),
    total: Number(totals.n),
    sum_credit: Number(totals.credit ?? 0),
    sum_debit: Number(totals.debit ?? 0),
  };
}

/** One order the owner reaches; another user's is as absent as one that does not exist. */
export async function readOrder(db: Kysely<Database>, owner: Owner, id: number) {
  const row = await db
    .selectFrom('orders')
    .innerJoin('users', 'users.id', 'orders.user_id')
    .leftJoin('coupons', 'coupons.id', 'orders.coupon_id')
    .leftJoin('user_packages', 'user_packages.id', 'orders.user_package_id')
    .selectAll('orders')
    .select(['users.username', 'coupons.code as coupon', 'user_packages.name as package_name'])
    .where('orders.id', '=', id)
    .$if(owner.kind !== 'admin', (qb) => qb.where('orders.user_id', '=', owner.userId))
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `order ${id} does not exist`);
  return presentOrder(row);
}
