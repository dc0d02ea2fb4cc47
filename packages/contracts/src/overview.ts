import { type Static, type TSchema, Type } from 'typebox';
import { OrderKindFilter } from './orders.ts';
import { PERMISSIONS, type Permission } from './permissions.ts';
import { UsageDate } from './usage.ts';

/** The overview pages (`home`, `admin-home`) load in one call each; the count calls feed admin trend charts. */
export const OVERVIEW_LIMITS = {
  /** Days of the traffic trend, today included. */
  trendDays: 14,
  /** Certificates expiring within this many days are listed. */
  expiringCertDays: 30,
  expiringCertList: 5,
  topSites: 10,
  /** A count series covers at most this many days. */
  countMaxDays: 366,
  /** A count series without a range: the last 30 days, today included. */
  countDefaultDays: 30,
} as const;

const Count = Type.Integer({ minimum: 0 });

/** Today's site traffic (UTC day). */
export const TrafficToday = Type.Object({
  bytes_in: Count,
  bytes_out: Count,
  requests: Count,
  cache_hits: Count,
  blocked: Count,
});
export type TrafficToday = Static<typeof TrafficToday>;

export const TrafficDay = Type.Object({ date: UsageDate, ...TrafficToday.properties });
export type TrafficDay = Static<typeof TrafficDay>;

export const TopSite = Type.Object({
  site_id: Type.Integer(),
  domain: Type.String(),
  user_id: Type.Integer(),
  bytes_out: Count,
  requests: Count,
});
export type TopSite = Static<typeof TopSite>;

const { adminFinance, adminNode, adminPackage, adminSys, adminUser } = PERMISSIONS;

/**
 * The codes (any one of them) an admin holds to see each figure of the admin home: the master
 * answers null for the others and the dashboard hides their cards. Sites, streams and the top sites
 * are customers' service (admin:user); the traffic of the fleet is the nodes' and the customers'.
 */
export const ADMIN_OVERVIEW_ACCESS = {
  nodes: [adminNode],
  sites: [adminUser],
  streams: [adminUser],
  users: [adminUser, adminSys],
  new_users_today: [adminUser, adminSys],
  packages_sold_today: [adminPackage],
  orders_today: [adminFinance],
  today: [adminNode, adminUser],
  trend: [adminNode, adminUser],
  top_sites: [adminUser],
} as const satisfies Record<string, readonly Permission[]>;

/** The codes of the admin home's count series, by route (the same areas as the figures). */
export const ADMIN_COUNT_ACCESS = {
  '/v1/new-user/count': ADMIN_OVERVIEW_ACCESS.new_users_today,
  '/v1/package-sold/count': ADMIN_OVERVIEW_ACCESS.packages_sold_today,
  '/v1/order/count': ADMIN_OVERVIEW_ACCESS.orders_today,
} as const;

/** A figure the caller may not see is null (see ADMIN_OVERVIEW_ACCESS). */
const Held = <T extends TSchema>(schema: T, figure: keyof typeof ADMIN_OVERVIEW_ACCESS) =>
  Type.Union([schema, Type.Null()], {
    description: `null unless the admin holds ${ADMIN_OVERVIEW_ACCESS[figure].join(' or ')}`,
  });

export const AdminOverview = Type.Object({
  nodes: Held(Type.Object({ total: Count, online: Count, offline: Count }), 'nodes'),
  sites: Held(Count, 'sites'),
  streams: Held(Count, 'streams'),
  /** Ordinary users (type 2). */
  users: Held(Count, 'users'),
  new_users_today: Held(Count, 'new_users_today'),
  /** User packages made today (bought or granted). */
  packages_sold_today: Held(Count, 'packages_sold_today'),
  /** Orders paid today. */
  orders_today: Held(Count, 'orders_today'),
  today: Held(TrafficToday, 'today'),
  /** The last days' traffic of every site, oldest first. */
  trend: Held(Type.Array(TrafficDay), 'trend'),
  /** Today's sites with the most traffic out. */
  top_sites: Held(Type.Array(TopSite), 'top_sites'),
});
export type AdminOverview = Static<typeof AdminOverview>;

export const ExpiringCert = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  not_after: Type.String({ description: 'ISO 8601' }),
});
export type ExpiringCert = Static<typeof ExpiringCert>;

export const UserOverview = Type.Object({
  sites: Count,
  streams: Count,
  certs: Count,
  /** Issued certificates expiring within 30 days (or expired), soonest first: the count and the first five. */
  certs_expiring: Count,
  certs_expiring_list: Type.Array(ExpiringCert),
  today: TrafficToday,
  /** This month so far (UTC). */
  month: Type.Object({ bytes_out: Count, requests: Count }),
  trend: Type.Array(TrafficDay),
});
export type UserOverview = Static<typeof UserOverview>;

export const CountSeriesQuery = Type.Object(
  {
    /** First and last UTC day, both included; default: the last 30 days. */
    from: Type.Optional(UsageDate),
    to: Type.Optional(UsageDate),
  },
  { additionalProperties: false },
);
export type CountSeriesQuery = Static<typeof CountSeriesQuery>;

/** A count per UTC day of the range, every day listed (zeros included), and their sum. */
export const CountSeries = Type.Object({
  from: UsageDate,
  to: UsageDate,
  total: Count,
  list: Type.Array(Type.Object({ date: UsageDate, count: Count })),
});
export type CountSeries = Static<typeof CountSeries>;

/** `GET /v1/order/count`: the count series, optionally of one kind of order. */
export const OrderCountQuery = Type.Object(
  {
    from: Type.Optional(UsageDate),
    to: Type.Optional(UsageDate),
    kind: Type.Optional(OrderKindFilter),
  },
  { additionalProperties: false },
);
export type OrderCountQuery = Static<typeof OrderCountQuery>;

const ChannelSums = Type.Record(Type.String(), Type.Integer(), {
  description: 'whole cents per payment channel (balance, admin, wxpay, alipay); only channels with orders',
});

/** Paid orders per UTC day of payment, every day listed: how many, their sum, and the sum per channel. */
export const OrderCountSeries = Type.Object({
  from: UsageDate,
  to: UsageDate,
  total: Count,
  /** Whole cents: the orders' sum (money spent from a balance counts negative). */
  amount: Type.Integer(),
  by_channel: ChannelSums,
  list: Type.Array(Type.Object({ date: UsageDate, count: Count, amount: Type.Integer(), by_channel: ChannelSums })),
});
export type OrderCountSeries = Static<typeof OrderCountSeries>;

export const SETUP_ITEMS = ['node', 'line_group', 'cname_domain', 'package', 'payment', 'smtp'] as const;
export type SetupItemKey = (typeof SETUP_ITEMS)[number];

/** GET /v1/admin/setup: the first-run checklist of the admin's home page. */
export const AdminSetup = Type.Object({
  items: Type.Array(
    Type.Object({
      key: Type.Union(
        [
          Type.Literal('node'),
          Type.Literal('line_group'),
          Type.Literal('cname_domain'),
          Type.Literal('package'),
          Type.Literal('payment'),
          Type.Literal('smtp'),
        ],
        {
          description:
            'node: a node is online; line_group: a line group exists; cname_domain: a CNAME domain on a DNS API exists; package: a package is on sale; payment: a payment channel is enabled; smtp: mail can be sent',
        },
      ),
      done: Type.Union([Type.Boolean(), Type.Null()], {
        description:
          'null when the admin lacks the code of its area (node, line_group, cname_domain: admin:node; package: admin:package; payment, smtp: admin:sys)',
      }),
      path: Type.String({ description: 'the dashboard page that sets it up' }),
    }),
  ),
});
export type AdminSetup = Static<typeof AdminSetup>;
