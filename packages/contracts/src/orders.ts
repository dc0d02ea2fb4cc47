import { type Static, Type } from 'typebox';
import { ListQuery } from './envelope.ts';
import { Id, Nullable } from './fields.ts';
import { MAX_CENTS } from './packages.ts';

/**
 * Orders (`/v1/orders`, `/v1/user/{uid}/recharge`, the payment pre-orders): every change to a
 * balance is an order row written in the same transaction as the change, with the balance after it.
 * An online recharge is a pending order until its payment notification is verified.
 */

const Time = Type.String({ description: 'ISO 8601' });

/**
 * The largest balance (cents): the largest integer JavaScript holds exactly. A credit that would
 * take a balance past it is refused; one order moves at most MAX_CENTS (a billion in the currency).
 */
export const MAX_BALANCE_CENTS = Number.MAX_SAFE_INTEGER;

export const ORDER_KINDS = ['recharge', 'purchase', 'renewal', 'upgrade', 'refund', 'adjustment'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
export const ORDER_CHANNELS = ['balance', 'admin', 'wxpay', 'alipay'] as const;
export type OrderChannel = (typeof ORDER_CHANNELS)[number];
export const ORDER_STATES = ['pending', 'paid', 'closed'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/**
 * An order row. `description` is stored in English when the order is written ("online recharge
 * (wxpay)", "Basic: 1 month(s)") or typed by an admin (adjustments, refunds); a client words the
 * order in its user's language from `kind`, `channel`, `package_name` and `refund_of`, and shows
 * `description` as typed for an adjustment.
 */
export const OrderView = Type.Object({
  id: Id,
  user_id: Id,
  username: Type.String(),
  kind: Type.String({ description: ORDER_KINDS.join(', ') }),
  channel: Type.String({ description: ORDER_CHANNELS.join(', ') }),
  state: Type.String(),
  /** Signed cents: positive credits the balance, negative spends it. */
  amount: Type.Integer(),
  /** The balance right after this order was paid; null while pending. */
  balance_after: Nullable(Type.Integer()),
  description: Type.String(),
  user_package_id: Nullable(Id),
  package_name: Nullable(
    Type.String({
      description: 'the name of the user package a purchase, renewal or upgrade was for; null for other kinds',
    }),
  ),
  coupon: Nullable(Type.String()),
  out_trade_no: Type.String(),
  provider_txn_id: Nullable(Type.String()),
  created_at: Time,
  paid_at: Nullable(Time),
  /** A refund: the online recharge it gives money back from. */
  refund_of: Nullable(Id),
});
export type OrderView = Static<typeof OrderView>;

/** One of ORDER_KINDS, as a query filter. */
export const OrderKindFilter = Type.Union(
  [
    Type.Literal('recharge'),
    Type.Literal('purchase'),
    Type.Literal('renewal'),
    Type.Literal('upgrade'),
    Type.Literal('refund'),
    Type.Literal('adjustment'),
  ],
  { description: ORDER_KINDS.join(', ') },
);

export const OrderListQuery = Type.Object({
  ...ListQuery.properties,
  user_id: Type.Optional(Id),
  kind: Type.Optional(OrderKindFilter),
  channel: Type.Optional(
    Type.Union([Type.Literal('balance'), Type.Literal('admin'), Type.Literal('wxpay'), Type.Literal('alipay')], {
      description: ORDER_CHANNELS.join(', '),
    }),
  ),
  state: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('paid'), Type.Literal('closed')], {
      description: ORDER_STATES.join(', '),
    }),
  ),
  from: Type.Optional(Time),
  to: Type.Optional(Time),
});
export type OrderListQuery = Static<typeof OrderListQuery>;

export const OrderList = Type.Object({
  list: Type.Array(OrderView),
  total: Type.Integer(),
  /** Sums over every order that matches the filter, not only this page (cents). */
  sum_credit: Type.Integer(),
  sum_debit: Type.Integer(),
});
export type OrderList = Static<typeof OrderList>;

/** POST /v1/orders: a user opens an online recharge; it is paid by the provider's notification. */
export const RechargeOrderBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: MAX_CENTS, description: `whole cents from 1 to ${MAX_CENTS}` }),
    channel: Type.Union([Type.Literal('wxpay'), Type.Literal('alipay')], { description: 'wxpay or alipay' }),
  },
  { additionalProperties: false },
);
export type RechargeOrderBody = Static<typeof RechargeOrderBody>;

/**
 * PUT /v1/orders/{id}: the owner or an admin:finance admin closes a pending recharge, at its provider
 * first; a verified payment that arrives for it anyway is still credited (money paid never vanishes).
 */
export const OrderUpdate = Type.Object(
  { state: Type.Literal('closed'), description: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);
export type OrderUpdate = Static<typeof OrderUpdate>;

/** A refund number: what the payment provider refunds once, however often it is asked. */
export const REFUND_NO_PATTERN = '^[0-9A-Za-z_-]{6,64}$';

/**
 * POST /v1/orders/{id}/refunds: an admin gives part or all of a paid online recharge back to the
 * payer through its provider, taking it from the balance (never below zero).
 */
export const OrderRefundBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: MAX_CENTS, description: `whole cents from 1 to ${MAX_CENTS}` }),
    reason: Type.Optional(Type.String({ maxLength: 80, description: 'at most 80 characters' })),
    refund_no: Type.String({
      pattern: REFUND_NO_PATTERN,
      description: '6 to 64 letters, digits, _ or -: the same number refunds once, so a call may be retried',
    }),
  },
  { additionalProperties: false },
);
export type OrderRefundBody = Static<typeof OrderRefundBody>;

/** POST /v1/user/{uid}/recharge: an admin credits (or, negative, debits) a balance. */
export const AdminRechargeBody = Type.Object(
  {
    amount: Type.Integer({
      minimum: -MAX_CENTS,
      maximum: MAX_CENTS,
      description: `whole cents from -${MAX_CENTS} to ${MAX_CENTS}, not 0; negative takes money away`,
    }),
    description: Type.Optional(Type.String({ maxLength: 200, description: 'at most 200 characters' })),
  },
  { additionalProperties: false },
);
export type AdminRechargeBody = Static<typeof AdminRechargeBody>;

export const UidParams = Type.Object({ uid: Id });
