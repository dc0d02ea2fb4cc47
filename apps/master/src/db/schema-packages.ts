import type { Generated } from 'kysely';

/** The tables of packages and money (migration 2026-11-25T1930-packages); money is whole cents. */

export interface PackageGroupsTable {
  id: Generated<number>;
  name: string;
  sort: Generated<number>;
  description: Generated<string>;
  created_at: number;
}

export interface PackagesTable {
  id: Generated<number>;
  name: string;
  group_id: number | null;
  line_group_id: number | null;
  description: Generated<string>;
  price_month: number | null;
  price_quarter: number | null;
  price_year: number | null;
  traffic_gb: Generated<number>;
  bandwidth_mbps: Generated<number>;
  max_sites: Generated<number>;
  max_domains: Generated<number>;
  max_streams: Generated<number>;
  max_ports: Generated<number>;
  billing: Generated<string>;
  /** Kept equal to forbidden_features (migration 2026-11-28T1400-package-features), which is read. */
  https: Generated<number>;
  waf: Generated<number>;
  /** JSON list of the PACKAGE_FEATURES the package does not include; '[]': all of them. */
  forbidden_features: Generated<string>;
  /** JSON list of CC rule group ids. */
  cc_rule_group_ids: Generated<string>;
  custom_cname: Generated<number>;
  sort: Generated<number>;
  on_sale: Generated<number>;
  stock: number | null;
  created_at: number;
  updated_at: number;
}

export interface PackageUpsTable {
  id: Generated<number>;
  name: string;
  /** JSON list of package ids; empty for every package. */
  package_ids: Generated<string>;
  kind: string;
  amount: number;
  price_month: number;
  on_sale: Generated<number>;
  sort: Generated<number>;
  created_at: number;
}

export interface DiscountsTable {
  id: Generated<number>;
  package_id: number | null;
  term: string;
  percent: number;
  created_at: number;
}

export interface CouponsTable {
  id: Generated<number>;
  code: string;
  kind: string;
  value: number;
  min_spend: Generated<number>;
  package_ids: Generated<string>;
  starts_at: number | null;
  ends_at: number | null;
  uses_per_user: Generated<number>;
  uses_total: Generated<number>;
  used: Generated<number>;
  enabled: Generated<number>;
  created_at: number;
}

export interface CouponHistoryTable {
  id: Generated<number>;
  coupon_id: number;
  user_id: number;
  order_id: number;
  amount_off: number;
  created_at: number;
}

export interface UserPackagesTable {
  id: Generated<number>;
  user_id: number;
  package_id: number;
  name: string;
  term: string;
  state: string;
  auto_renew: Generated<number>;
  /** 1 while this month's traffic is past the package's (set by the settlement task). */
  traffic_exceeded: Generated<number>;
  start_at: number;
  end_at: number;
  created_at: number;
}

export interface UserPackageUpgradesTable {
  id: Generated<number>;
  user_package_id: number;
  package_up_id: number;
  kind: string;
  amount: number;
  adds: number;
  end_at: number;
  created_at: number;
}

export interface OrdersTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  channel: string;
  state: string;
  amount: number;
  balance_after: number | null;
  description: Generated<string>;
  user_package_id: number | null;
  coupon_id: number | null;
  out_trade_no: string;
  provider_txn_id: string | null;
  created_at: number;
  paid_at: number | null;
  /** A refund: the paid online recharge it gives money back from. */
  refund_of: Generated<number | null>;
}

export interface PackagesTables {
  package_groups: PackageGroupsTable;
  packages: PackagesTable;
  package_ups: PackageUpsTable;
  discounts: DiscountsTable;
  coupons: CouponsTable;
  coupon_history: CouponHistoryTable;
  user_packages: UserPackagesTable;
  user_package_upgrades: UserPackageUpgradesTable;
  orders: OrdersTable;
}
