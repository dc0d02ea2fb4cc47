import {
  type CouponBody,
  type CouponView,
  PACKAGE_FEATURES,
  type PackageBody,
  type PackageFeatureSet,
  type PackageUpBody,
  type PackageUpView,
  type PackageView,
  type UpgradeKind,
} from '@rampart/contracts';
import { centsToText, parseMoney } from './money.ts';

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO time as a datetime-local field holds it, in the browser's time zone (to the minute). */
export const localInput = (iso: string | null | undefined): string => {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** A datetime-local field's text as an ISO time; null when empty or not a time. */
export const isoOf = (local: string | null | undefined): string | null => {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

/** The package form: money as typed text, "none" selects as 0, an empty stock as null. */
/** The feature switches are the package's own fields (PACKAGE_FEATURES); new packages allow every feature. */
export interface PackageDraft extends PackageFeatureSet {
  name: string;
  group_id: number;
  line_group_id: number;
  description: string;
  price_month: string;
  price_quarter: string;
  price_year: string;
  traffic_gb: number | null;
  bandwidth_mbps: number | null;
  max_sites: number | null;
  max_domains: number | null;
  max_streams: number | null;
  max_ports: number | null;
  billing: 'traffic' | 'bandwidth95';
  cc_rule_group_ids: number[];
  custom_cname: boolean;
  sort: number | null;
  on_sale: boolean;
  stock: number | null;
}

export const LIMIT_FIELDS = [
  'traffic_gb',
  'bandwidth_mbps',
  'max_sites',
  'max_domains',
  'max_streams',
  'max_ports',
] as const;

const featureDraft = (source: PackageFeatureSet | null): PackageFeatureSet =>
  Object.fromEntries(PACKAGE_FEATURES.map((feature) => [feature, source?.[feature] ?? true])) as PackageFeatureSet;

export const packageDraftOf = (pkg: PackageView | null): PackageDraft => ({
  name: pkg?.name ?? '',
  group_id: pkg?.group_id ?? 0,
  line_group_id: pkg?.line_group_id ?? 0,
  description: pkg?.description ?? '',
  price_month: centsToText(pkg ? pkg.price_month : null),
  price_quarter: centsToText(pkg ? pkg.price_quarter : null),
  price_year: centsToText(pkg ? pkg.price_year : null),
  traffic_gb: pkg?.traffic_gb ?? 0,
  bandwidth_mbps: pkg?.bandwidth_mbps ?? 0,
  max_sites: pkg?.max_sites ?? 1,
  max_domains: pkg?.max_domains ?? 10,
  max_streams: pkg?.max_streams ?? 0,
  max_ports: pkg?.max_ports ?? 0,
  billing: pkg?.billing === 'bandwidth95' ? 'bandwidth95' : 'traffic',
  ...featureDraft(pkg),
  cc_rule_group_ids: pkg?.cc_rule_group_ids ?? [],
  custom_cname: pkg?.custom_cname ?? false,
  sort: pkg?.sort ?? 0,
  // A new package is off sale until its prices and limits have been checked.
  on_sale: pkg?.on_sale ?? false,
  stock: pkg?.stock ?? null,
});

/** More sites than domains allowed: some sites could not have a domain, worth a second look before saving. */
export const sitesExceedDomains = (draft: Pick<PackageDraft, 'max_sites' | 'max_domains'>): boolean =>
  (draft.max_sites ?? 0) > (draft.max_domains ?? 0);

/** Money text already checked by the form's rules: empty is null (not sold for that term). */
const cents = (text: string) => parseMoney(text) ?? null;

/** POST /v1/packages and PUT /v1/packages/{id} take the whole form. */
export const packageBody = (draft: PackageDraft): PackageBody => ({
  name: draft.name.trim(),
  group_id: draft.group_id || null,
  line_group_id: draft.line_group_id || null,
  description: draft.description.trim(),
  price_month: cents(draft.price_month),
  price_quarter: cents(draft.price_quarter),
  price_year: cents(draft.price_year),
  traffic_gb: draft.traffic_gb ?? 0,
  bandwidth_mbps: draft.bandwidth_mbps ?? 0,
  max_sites: draft.max_sites ?? 0,
  max_domains: draft.max_domains ?? 0,
  max_streams: draft.max_streams ?? 0,
  max_ports: draft.max_ports ?? 0,
  billing: draft.billing,
  ...featureDraft(draft),
  cc_rule_group_ids: draft.cc_rule_group_ids,
  custom_cname: draft.custom_cname,
  sort: draft.sort ?? 0,
  on_sale: draft.on_sale,
  stock: draft.stock,
});

export interface PackUpDraft {
  name: string;
  kind: UpgradeKind;
  amount: number | null;
  price_month: string;
  package_ids: number[];
  on_sale: boolean;
  sort: number | null;
}

export const packUpDraftOf = (pack: PackageUpView | null): PackUpDraft => ({
  name: pack?.name ?? '',
  kind: (pack?.kind as UpgradeKind | undefined) ?? 'traffic_gb',
  amount: pack?.amount ?? null,
  price_month: centsToText(pack?.price_month ?? null),
  package_ids: pack?.package_ids ?? [],
  on_sale: pack?.on_sale ?? true,
  sort: pack?.sort ?? 0,
});

export const packUpBody = (draft: PackUpDraft): PackageUpBody => ({
  name: draft.name.trim(),
  kind: draft.kind,
  amount: draft.amount ?? 1,
  price_month: cents(draft.price_month) ?? 0,
  package_ids: draft.package_ids,
  on_sale: draft.on_sale,
  sort: draft.sort ?? 0,
});

export interface CouponDraft {
  code: string;
  kind: 'amount' | 'percent';
  /** Money text for an amount coupon, a whole percent for a percent one. */
  value: string;
  min_spend: string;
  package_ids: number[];
  /** datetime-local text; empty for no bound. */
  starts_at: string;
  ends_at: string;
  uses_per_user: number | null;
  uses_total: number | null;
  enabled: boolean;
}

const PERCENT = /^\d{1,3}$/;

/** The coupon's value as the API takes it: cents off, or percent off; undefined when it is neither. */
export const couponValue = (kind: CouponDraft['kind'], text: string): number | undefined => {
  if (kind === 'amount') {
    const value = parseMoney(text);
    return value ? value : undefined;
  }
  const trimmed = text.trim();
  if (!PERCENT.test(trimmed)) return undefined;
  const percent = Number(trimmed);
  return percent >= 1 && percent <= 100 ? percent : undefined;
};

export const couponDraftOf = (coupon: CouponView | null): CouponDraft => ({
  code: coupon?.code ?? '',
  kind: coupon?.kind === 'percent' ? 'percent' : 'amount',
  value: coupon ? (coupon.kind === 'percent' ? String(coupon.value) : centsToText(coupon.value)) : '',
  min_spend: centsToText(coupon?.min_spend ?? 0),
  package_ids: coupon?.package_ids ?? [],
  starts_at: localInput(coupon?.starts_at),
  ends_at: localInput(coupon?.ends_at),
  uses_per_user: coupon?.uses_per_user ?? 1,
  uses_total: coupon?.uses_total ?? 100,
  enabled: coupon?.enabled ?? true,
});

export const couponBody = (draft: CouponDraft): CouponBody => ({
  code: draft.code.trim().toUpperCase(),
  kind: draft.kind,
  value: couponValue(draft.kind, draft.value) ?? 1,
  min_spend: cents(draft.min_spend) ?? 0,
  package_ids: draft.package_ids,
  starts_at: isoOf(draft.starts_at),
  ends_at: isoOf(draft.ends_at),
  uses_per_user: draft.uses_per_user ?? 1,
  uses_total: draft.uses_total ?? 1,
  enabled: draft.enabled,
});

/**
 * Fields the master cannot take as null yet: its body validation coerces a null price or stock to 0
 * (free, out of stock) and a null time to "" (refused). A null is left out instead: stored as null
 * on create, left as it is on update (the forms refuse to empty such a field once set).
 */
const NULL_COERCED: readonly string[] = ['price_month', 'price_quarter', 'price_year', 'stock', 'starts_at', 'ends_at'];

export const withoutCoercedNulls = <B extends object>(body: B): B =>
  Object.fromEntries(
    Object.entries(body).filter(([key, value]) => !(value === null && NULL_COERCED.includes(key))),
  ) as B;

/** A field set before may not be emptied (the master would store 0, see withoutCoercedNulls). */
export const keptRule = (wasSet: boolean, message: string) => ({
  validator: async (_rule: unknown, value: unknown) => {
    if (wasSet && (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')))
      throw new Error(message);
  },
});
