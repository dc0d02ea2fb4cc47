import { type Static, type TBoolean, type TOptional, Type } from 'typebox';
import { ObjectName } from './edge/fields.ts';
import { ListQuery } from './envelope.ts';
import { Id, Nullable } from './fields.ts';

/**
 * Packages as operators of such panels know them (`/v1/package-groups`, `/v1/packages`,
 * `/v1/package-ups`, `/v1/discounts`, `/v1/coupons`): what a customer can buy, for how long, at what
 * price, and the limits it gives. Money is always whole cents.
 */

const Time = Type.String({ description: 'ISO 8601' });

export const MAX_CENTS = 100_000_000_000; // a billion in the currency: far above any price or balance

/** A price or an amount of money: whole cents, never negative, never fractional. */
export const Cents = Type.Integer({
  minimum: 0,
  maximum: MAX_CENTS,
  description: `whole cents from 0 to ${MAX_CENTS}`,
});

const Description = Type.String({ maxLength: 500, description: 'at most 500 characters' });
const Sort = Type.Integer({ minimum: 0, maximum: 9999, description: 'from 0 to 9999; lower first' });
const Count = (what: string, max: number) =>
  Type.Integer({ minimum: 0, maximum: max, description: `${what}: a whole number from 0 to ${max}` });

/** How long one purchase lasts; a price is set per term, and a term without a price is not sold. */
export const TERMS = ['month', 'quarter', 'year'] as const;
export const Term = Type.Union([Type.Literal('month'), Type.Literal('quarter'), Type.Literal('year')], {
  description: 'month, quarter or year',
});
export type Term = Static<typeof Term>;
export const TERM_MONTHS: Record<Term, number> = { month: 1, quarter: 3, year: 12 };

// ---- package groups

export const PackageGroupBody = Type.Object(
  { name: ObjectName, sort: Type.Optional(Sort), description: Type.Optional(Description) },
  { additionalProperties: false },
);
export type PackageGroupBody = Static<typeof PackageGroupBody>;
export const PackageGroupUpdate = Type.Partial(PackageGroupBody, { additionalProperties: false });
export type PackageGroupUpdate = Static<typeof PackageGroupUpdate>;

export const PackageGroupView = Type.Object({
  id: Id,
  name: Type.String(),
  sort: Type.Integer(),
  description: Type.String(),
  package_count: Type.Integer(),
});
export type PackageGroupView = Static<typeof PackageGroupView>;

// ---- packages

/** What a package (and an upgrade pack) gives; 0 traffic or bandwidth means unlimited. */
export const PackageLimits = {
  traffic_gb: Count('traffic per month in GB, 0 for unlimited', 10_000_000),
  bandwidth_mbps: Count('bandwidth cap in Mbit/s, 0 for unlimited', 10_000_000),
  max_sites: Count('sites', 100_000),
  max_domains: Count('domains over all sites', 1_000_000),
  max_streams: Count('forwarding streams', 100_000),
  max_ports: Count('listening ports over all streams', 1_000_000),
};

/**
 * Site features an operator allows or forbids per package (the way panels such as cdnfly switch
 * them): a site of a customer's package cannot turn on one its package forbids. Every feature is
 * allowed unless the package says false, so packages made before a feature existed keep working.
 * A new feature is one entry here and one line in the master's package-features.ts.
 */
export const PACKAGE_FEATURES = [
  'https',
  'waf',
  'hotlink',
  'url_auth',
  'error_pages',
  'redirects',
  'health_check',
  'geo',
] as const;
export type PackageFeature = (typeof PACKAGE_FEATURES)[number];

/** What each switch lets a site use, as the API documents it. */
export const PACKAGE_FEATURE_TEXT: Record<PackageFeature, string> = {
  https: 'HTTPS (https_listen)',
  waf: 'the signature WAF (protection.waf.mode other than off)',
  hotlink: 'hotlink protection (hotlink)',
  url_auth: 'signed URLs (url_auth)',
  error_pages: "the site's own error pages (error_pages)",
  redirects: 'redirects and rewrites (redirects)',
  health_check: 'origin health checks (health_check)',
  geo: 'country and ASN conditions in ACL entries and CC rules',
};

const featureFlag = (feature: PackageFeature) =>
  Type.Boolean({ description: `allows ${PACKAGE_FEATURE_TEXT[feature]}; default true` });
const FEATURE_FLAGS = Object.fromEntries(PACKAGE_FEATURES.map((feature) => [feature, featureFlag(feature)])) as {
  [K in PackageFeature]: TBoolean;
};
const OPTIONAL_FEATURE_FLAGS = Object.fromEntries(
  PACKAGE_FEATURES.map((feature) => [feature, Type.Optional(featureFlag(feature))]),
) as { [K in PackageFeature]: TOptional<TBoolean> };

/** Each feature: true when the package allows it. */
export const PackageFeatureSet = Type.Object(FEATURE_FLAGS);
export type PackageFeatureSet = Static<typeof PackageFeatureSet>;

export const PackageFeatureName = Type.Unsafe<PackageFeature>({
  type: 'string',
  enum: [...PACKAGE_FEATURES],
  description: PACKAGE_FEATURES.join(', '),
});

/**
 * GET /v1/sites/{id}/package-features: what the site may turn on. `limited` is false for a site that
 * counts against no package or whose owner is an operator or package-exempt: then every feature is
 * allowed. `beyond`: features the site uses that its package no longer includes (switched off after
 * the site turned them on); they keep working, but cannot be turned on again once turned off.
 */
export const SitePackageFeatures = Type.Object({
  limited: Type.Boolean({ description: "whether the site's package limits its features" }),
  user_package_id: Type.Union([Id, Type.Null()], {
    description: 'the user package the site counts against; null: none',
  }),
  package_name: Type.Union([Type.String(), Type.Null()], {
    description: 'the name of that user package while it limits the site; null otherwise',
  }),
  features: PackageFeatureSet,
  in_use: Type.Array(PackageFeatureName, { description: 'the features the site uses now' }),
  beyond: Type.Array(PackageFeatureName, { description: 'features in use that the package does not include' }),
});
export type SitePackageFeatures = Static<typeof SitePackageFeatures>;

export const PackageBody = Type.Object(
  {
    name: ObjectName,
    group_id: Type.Optional(Nullable(Id)),
    line_group_id: Type.Optional(Nullable(Id)),
    description: Type.Optional(Description),
    price_month: Type.Optional(Nullable(Cents)),
    price_quarter: Type.Optional(Nullable(Cents)),
    price_year: Type.Optional(Nullable(Cents)),
    traffic_gb: Type.Optional(PackageLimits.traffic_gb),
    bandwidth_mbps: Type.Optional(PackageLimits.bandwidth_mbps),
    max_sites: Type.Optional(PackageLimits.max_sites),
    max_domains: Type.Optional(PackageLimits.max_domains),
    max_streams: Type.Optional(PackageLimits.max_streams),
    max_ports: Type.Optional(PackageLimits.max_ports),
    /** Bill the bandwidth by the month's 95th percentile instead of capping the traffic. */
    billing: Type.Optional(
      Type.Union([Type.Literal('traffic'), Type.Literal('bandwidth95')], { description: 'traffic or bandwidth95' }),
    ),
    ...OPTIONAL_FEATURE_FLAGS,
    /** The protection level: the CC rule groups the package's sites may use (empty: the defaults only). */
    cc_rule_group_ids: Type.Optional(Type.Array(Id, { maxItems: 100, uniqueItems: true })),
    custom_cname: Type.Optional(Type.Boolean()),
    sort: Type.Optional(Sort),
    on_sale: Type.Optional(Type.Boolean()),
    /** How many more may be sold; null for no limit. */
    stock: Type.Optional(Nullable(Count('stock', 1_000_000))),
  },
  { additionalProperties: false },
);
export type PackageBody = Static<typeof PackageBody>;
export const PackageUpdate = Type.Partial(PackageBody, { additionalProperties: false });
export type PackageUpdate = Static<typeof PackageUpdate>;

export const PackageView = Type.Object({
  id: Id,
  name: Type.String(),
  group_id: Nullable(Id),
  group_name: Nullable(Type.String()),
  line_group_id: Nullable(Id),
  description: Type.String(),
  price_month: Nullable(Type.Integer()),
  price_quarter: Nullable(Type.Integer()),
  price_year: Nullable(Type.Integer()),
  traffic_gb: Type.Integer(),
  bandwidth_mbps: Type.Integer(),
  max_sites: Type.Integer(),
  max_domains: Type.Integer(),
  max_streams: Type.Integer(),
  max_ports: Type.Integer(),
  billing: Type.String(),
  ...FEATURE_FLAGS,
  cc_rule_group_ids: Type.Array(Id),
  custom_cname: Type.Boolean(),
  sort: Type.Integer(),
  on_sale: Type.Boolean(),
  stock: Nullable(Type.Integer()),
  sold: Type.Integer({ description: 'user packages made from it' }),
  created_at: Time,
});
export type PackageView = Static<typeof PackageView>;

export const PackageListQuery = Type.Object({
  ...ListQuery.properties,
  group_id: Type.Optional(Id),
  on_sale: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String({ maxLength: 64 })),
});
export type PackageListQuery = Static<typeof PackageListQuery>;

// ---- upgrade packs

export const UPGRADE_KINDS = ['traffic_gb', 'bandwidth_mbps', 'max_sites', 'max_domains', 'max_streams'] as const;
export const UpgradeKind = Type.Union(
  [
    Type.Literal('traffic_gb'),
    Type.Literal('bandwidth_mbps'),
    Type.Literal('max_sites'),
    Type.Literal('max_domains'),
    Type.Literal('max_streams'),
  ],
  { description: 'traffic_gb, bandwidth_mbps, max_sites, max_domains or max_streams' },
);
export type UpgradeKind = Static<typeof UpgradeKind>;

export const PackageUpBody = Type.Object(
  {
    name: ObjectName,
    /** The packages it can be added to; empty for every package. */
    package_ids: Type.Optional(Type.Array(Id, { maxItems: 1000, uniqueItems: true })),
    kind: UpgradeKind,
    /** What one pack adds, in the kind's unit. */
    amount: Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'from 1 to 10000000' }),
    /** The price of one pack for a whole month; prorated by the day to the package's end. */
    price_month: Cents,
    on_sale: Type.Optional(Type.Boolean()),
    sort: Type.Optional(Sort),
  },
  { additionalProperties: false },
);
export type PackageUpBody = Static<typeof PackageUpBody>;
export const PackageUpUpdate = Type.Partial(PackageUpBody, { additionalProperties: false });
export type PackageUpUpdate = Static<typeof PackageUpUpdate>;

export const PackageUpView = Type.Object({
  id: Id,
  name: Type.String(),
  package_ids: Type.Array(Id),
  kind: Type.String(),
  amount: Type.Integer(),
  price_month: Type.Integer(),
  on_sale: Type.Boolean(),
  sort: Type.Integer(),
  created_at: Time,
});
export type PackageUpView = Static<typeof PackageUpView>;

// ---- discounts

export const DiscountBody = Type.Object(
  {
    /** null: every package. */
    package_id: Type.Optional(Nullable(Id)),
    term: Term,
    /** Percent off the term's price. */
    percent: Type.Integer({ minimum: 1, maximum: 99, description: 'percent off: from 1 to 99' }),
  },
  { additionalProperties: false },
);
export type DiscountBody = Static<typeof DiscountBody>;
export const DiscountUpdate = Type.Partial(DiscountBody, { additionalProperties: false });
export type DiscountUpdate = Static<typeof DiscountUpdate>;

export const DiscountView = Type.Object({
  id: Id,
  package_id: Nullable(Id),
  package_name: Nullable(Type.String()),
  term: Type.String(),
  percent: Type.Integer(),
  created_at: Time,
});
export type DiscountView = Static<typeof DiscountView>;

// ---- coupons

export const CouponCode = Type.String({
  pattern: '^[A-Za-z0-9_-]{4,32}$',
  description: '4 to 32 letters, digits, _ or -',
});

export const CouponBody = Type.Object(
  {
    code: CouponCode,
    /** amount: `value` cents off; percent: `value` percent off. */
    kind: Type.Union([Type.Literal('amount'), Type.Literal('percent')], { description: 'amount or percent' }),
    value: Type.Integer({ minimum: 1, maximum: MAX_CENTS, description: 'cents off, or percent off (1 to 100)' }),
    min_spend: Type.Optional(Cents),
    /** The packages it applies to; empty for every package. */
    package_ids: Type.Optional(Type.Array(Id, { maxItems: 1000, uniqueItems: true })),
    starts_at: Type.Optional(Nullable(Time)),
    ends_at: Type.Optional(Nullable(Time)),
    uses_per_user: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'from 1 to 1000000' })),
    uses_total: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'from 1 to 1000000' })),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CouponBody = Static<typeof CouponBody>;
export const CouponUpdate = Type.Partial(CouponBody, { additionalProperties: false });
export type CouponUpdate = Static<typeof CouponUpdate>;

export const CouponView = Type.Object({
  id: Id,
  code: Type.String(),
  kind: Type.String(),
  value: Type.Integer(),
  min_spend: Type.Integer(),
  package_ids: Type.Array(Id),
  starts_at: Nullable(Time),
  ends_at: Nullable(Time),
  uses_per_user: Type.Integer(),
  uses_total: Type.Integer(),
  used: Type.Integer(),
  enabled: Type.Boolean(),
  created_at: Time,
});
export type CouponView = Static<typeof CouponView>;

export const CouponHistoryQuery = Type.Object({
  ...ListQuery.properties,
  coupon_id: Type.Optional(Id),
  user_id: Type.Optional(Id),
});
export type CouponHistoryQuery = Static<typeof CouponHistoryQuery>;

export const CouponHistoryView = Type.Object({
  id: Id,
  coupon_id: Id,
  code: Type.String(),
  user_id: Id,
  username: Type.String(),
  order_id: Id,
  amount_off: Type.Integer({ description: 'cents' }),
  created_at: Time,
});
export type CouponHistoryView = Static<typeof CouponHistoryView>;
