import { type Static, Type } from 'typebox';
import { ListQuery } from './envelope.ts';
import { Id, Nullable } from './fields.ts';
import { CouponCode, PackageFeatureSet, Term } from './packages.ts';

/**
 * User packages (`/v1/user-packages`, `/v1/user-package/{id}/upgrades`): a user's instance of a
 * package, bought from the balance or granted by an admin, with its term, state and the limits it
 * gives after upgrade packs.
 */

const Time = Type.String({ description: 'ISO 8601' });

/** A user package ends at most this many years ahead (a grant, an end set, an extension, a renewal). */
export const USER_PACKAGE_MAX_YEARS = 100;
/** No user package ends later than this, whatever the date. */
export const USER_PACKAGE_LAST_END = '9999-12-31T23:59:59.000Z';

const EndAt = Type.String({
  description: `ISO 8601; at most ${USER_PACKAGE_MAX_YEARS} years ahead and never past ${USER_PACKAGE_LAST_END}`,
});
/** A stored time: one outside 1970 to 9999 (written before these bounds) reads clamped to that range. */
const StoredTime = Type.String({
  description: `ISO 8601; a stored time before 1970 or past ${USER_PACKAGE_LAST_END} reads clamped to that range`,
});

export const USER_PACKAGE_STATES = ['active', 'expired', 'suspended'] as const;
export const UserPackageState = Type.Union(
  [Type.Literal('active'), Type.Literal('expired'), Type.Literal('suspended')],
  {
    description: 'active, expired or suspended',
  },
);
export type UserPackageState = Static<typeof UserPackageState>;

const Terms = Type.Integer({
  minimum: 1,
  maximum: 36,
  description: `how many terms: from 1 to 36, ending at most ${USER_PACKAGE_MAX_YEARS} years ahead`,
});

/**
 * A user buys with `package_id`, `term`, `terms` and an optional `coupon`, paying from the balance.
 * An admin grants with `user_id` and `end_at` instead, charging nothing.
 */
export const UserPackageBuy = Type.Object(
  {
    package_id: Id,
    term: Type.Optional(Term),
    terms: Type.Optional(Terms),
    coupon: Type.Optional(CouponCode),
    auto_renew: Type.Optional(Type.Boolean()),
    /** Admin only: whose package it is, charged nothing. */
    user_id: Type.Optional(Id),
    /** Admin only: when a granted package ends (default: one term from now). */
    end_at: Type.Optional(EndAt),
    /** Only quote the price (coupon and discount applied); buy nothing. */
    quote: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UserPackageBuy = Static<typeof UserPackageBuy>;

export const PriceQuote = Type.Object({
  package_id: Id,
  term: Type.String(),
  terms: Type.Integer(),
  list_price: Type.Integer({ description: 'cents: the term price times the terms' }),
  discount_percent: Type.Integer(),
  discount: Type.Integer({ description: 'cents' }),
  coupon: Nullable(Type.String()),
  coupon_off: Type.Integer({ description: 'cents' }),
  amount: Type.Integer({ description: 'cents to pay' }),
  balance: Type.Integer({ description: "the buyer's balance in cents" }),
});
export type PriceQuote = Static<typeof PriceQuote>;

/** A renewal: more terms on an existing user package, paid from the balance. */
export const UserPackageRenew = Type.Object(
  { term: Term, terms: Type.Optional(Terms), coupon: Type.Optional(CouponCode), quote: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type UserPackageRenew = Static<typeof UserPackageRenew>;

export const UserPackageUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: '1 to 64 characters' })),
    auto_renew: Type.Optional(Type.Boolean()),
    /** Pays for more time from the balance. */
    renew: Type.Optional(UserPackageRenew),
    /** Admin only. */
    end_at: Type.Optional(EndAt),
    /** Admin only: suspend or reactivate. */
    state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
  },
  { additionalProperties: false },
);
export type UserPackageUpdate = Static<typeof UserPackageUpdate>;

/** Batch PUT: the same change to many user packages (admins: extend or suspend; users: auto-renew). */
export const UserPackageBatch = Type.Object(
  {
    ids: Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true }),
    auto_renew: Type.Optional(Type.Boolean()),
    /** Admin only: days added to each end (negative shortens); refused for all if one would end too late. */
    extend_days: Type.Optional(
      Type.Integer({
        minimum: -3650,
        maximum: 3650,
        description: `from -3650 to 3650; no package may end more than ${USER_PACKAGE_MAX_YEARS} years ahead`,
      }),
    ),
    state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
  },
  { additionalProperties: false },
);
export type UserPackageBatch = Static<typeof UserPackageBatch>;

export const UserPackageLimits = Type.Object({
  traffic_gb: Type.Integer(),
  bandwidth_mbps: Type.Integer(),
  max_sites: Type.Integer(),
  max_domains: Type.Integer(),
  max_streams: Type.Integer(),
  max_ports: Type.Integer(),
});
export type UserPackageLimits = Static<typeof UserPackageLimits>;

export const UserPackageView = Type.Object({
  id: Id,
  user_id: Id,
  username: Type.String(),
  package_id: Id,
  package_name: Type.String(),
  name: Type.String(),
  term: Type.String(),
  state: Type.String(),
  auto_renew: Type.Boolean(),
  /** This month's traffic is past the package's: its sites get the operator's policy (suspended or throttled) until a new month or more traffic. */
  traffic_exceeded: Type.Boolean(),
  start_at: StoredTime,
  end_at: StoredTime,
  /** The package's limits plus the upgrade packs in force. */
  limits: UserPackageLimits,
  used: Type.Object({ sites: Type.Integer(), domains: Type.Integer(), streams: Type.Integer() }),
  /** The site features its package allows (true) or forbids (false), as the package says now. */
  features: Type.Object(PackageFeatureSet.properties, {
    description: 'the site features its package allows (true) or forbids (false), as the package says now',
  }),
  created_at: StoredTime,
});
export type UserPackageView = Static<typeof UserPackageView>;

/**
 * What a purchase did with the buyer's sites and streams that counted against no package: once the
 * buyer has exactly one active package they join it in id order, each that fits its limits.
 */
export const PackageAttachResult = Type.Object({
  attached: Type.Object(
    { sites: Type.Integer({ minimum: 0 }), streams: Type.Integer({ minimum: 0 }) },
    { description: 'how many sites and streams without a package now count against this one' },
  ),
  not_attached: Type.Object(
    {
      sites: Type.Array(Type.String(), { description: 'names of the sites that did not fit' }),
      streams: Type.Array(Type.String(), { description: 'names (or ports) of the streams that did not fit' }),
    },
    { description: 'those without a package that did not fit its limits and still count against none' },
  ),
});
export type PackageAttachResult = Static<typeof PackageAttachResult>;

/** POST /v1/user-packages answers the new user package and what joined it. */
export const UserPackagePurchase = Type.Object({ ...UserPackageView.properties, ...PackageAttachResult.properties });
export type UserPackagePurchase = Static<typeof UserPackagePurchase>;

/** GET /v1/user-packages/standing: whether the signed-in account needs a package to create sites and streams. */
export const UserPackageStanding = Type.Object({
  required: Type.Boolean({
    description: 'the require_package setting is on and this account needs an active package (a customer, not exempt)',
  }),
  exempt: Type.Boolean({ description: "the account's package_exempt flag, set by an admin" }),
  unlimited: Type.Boolean({ description: 'not required: an operator, an exempt account, or the setting is off' }),
  active: Type.Integer({ minimum: 0, description: 'active packages that have not ended' }),
  unattached: Type.Object(
    { sites: Type.Integer({ minimum: 0 }), streams: Type.Integer({ minimum: 0 }) },
    { description: "the account's sites and streams that count against no package" },
  ),
});
export type UserPackageStanding = Static<typeof UserPackageStanding>;

export const UserPackageListQuery = Type.Object({
  ...ListQuery.properties,
  user_id: Type.Optional(Id),
  package_id: Type.Optional(Id),
  state: Type.Optional(UserPackageState),
  /** Ends before this time: the packages to renew soon. */
  ends_before: Type.Optional(Time),
});
export type UserPackageListQuery = Static<typeof UserPackageListQuery>;

// ---- upgrades

export const UpgradeParams = Type.Object({ upid: Id, package_up_id: Id });
export const UpgradeQuoteQuery = Type.Object({
  amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'packs: from 1 to 1000' })),
});

export const UpgradeBuy = Type.Object(
  {
    package_up_id: Id,
    amount: Type.Integer({ minimum: 1, maximum: 1000, description: 'packs: from 1 to 1000' }),
  },
  { additionalProperties: false },
);
export type UpgradeBuy = Static<typeof UpgradeBuy>;

export const UpgradeQuote = Type.Object({
  package_up_id: Id,
  amount: Type.Integer(),
  days: Type.Integer({ description: 'days left to the package’s end' }),
  price: Type.Integer({
    description: 'cents: price per month times packs, prorated by the day; refused past 2^53 - 1 cents',
  }),
  balance: Type.Integer(),
});
export type UpgradeQuote = Static<typeof UpgradeQuote>;

/** PUT upgrades: carries the packs that end before the package to its end; `quote` only prices it. */
export const UpgradeExtend = Type.Object(
  {
    /** Answers the price without paying. */
    quote: Type.Optional(Type.Boolean()),
    /** The quoted price the user agreed to (cents): refused when the price is no longer that. */
    price: Type.Optional(Type.Integer({ minimum: 0, description: 'cents, 0 or more' })),
  },
  { additionalProperties: false },
);
export type UpgradeExtend = Static<typeof UpgradeExtend>;

export const UpgradeExtendResult = Type.Object({
  /** Packs carried (or, with `quote`, to carry) to the package's end. */
  extended: Type.Integer(),
  price: Type.Integer({ description: 'cents: each pack prorated by the day from its end to the package’s' }),
  /** The balance after paying (with `quote`, the balance now). */
  balance: Type.Integer(),
  quote: Type.Boolean(),
});
export type UpgradeExtendResult = Static<typeof UpgradeExtendResult>;

export const UpgradeView = Type.Object({
  id: Id,
  user_package_id: Id,
  package_up_id: Id,
  name: Type.String(),
  kind: Type.String(),
  amount: Type.Integer({ description: 'packs' }),
  adds: Type.Integer({ description: 'packs times the pack’s amount' }),
  end_at: StoredTime,
  created_at: StoredTime,
});
export type UpgradeView = Static<typeof UpgradeView>;
