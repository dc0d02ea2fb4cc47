import type { DiscountView, PackageView, Term, UserPackageBuy, UserPackageRenew } from '@rampart/contracts';
import { TERMS } from '@rampart/contracts';

/** What a customer chooses in the checkout and the renewal: the term, how many, and a coupon. */
export interface PurchaseDraft {
  term: Term;
  terms: number;
  coupon: string;
}

export const MIN_TERMS = 1;
export const MAX_TERMS = 36;
/** The coupon code as the API accepts it (CouponCode in contracts). */
export const COUPON_PATTERN = /^[A-Za-z0-9_-]{4,32}$/;

export const termPriceOf = (pkg: Pick<PackageView, 'price_month' | 'price_quarter' | 'price_year'>, term: Term) =>
  term === 'month' ? pkg.price_month : term === 'quarter' ? pkg.price_quarter : pkg.price_year;

/** The terms a package is sold by: those with a price, in month, quarter, year order. */
export const soldTerms = (pkg: Pick<PackageView, 'price_month' | 'price_quarter' | 'price_year'>): Term[] =>
  TERMS.filter((term) => termPriceOf(pkg, term) !== null);

/** The percent off a term, as the server prices it: the package's own discount, else the one for every package. */
export const discountPercent = (discounts: readonly DiscountView[], packageId: number, term: Term): number => {
  const forTerm = discounts.filter((row) => row.term === term);
  return (
    forTerm.find((row) => row.package_id === packageId)?.percent ??
    forTerm.find((row) => row.package_id === null)?.percent ??
    0
  );
};

/** A draft the server would refuse without asking it: no quote is requested for it. */
export const isQuotable = (draft: Partial<PurchaseDraft>): draft is PurchaseDraft =>
  draft.term !== undefined &&
  Number.isInteger(draft.terms) &&
  (draft.terms ?? 0) >= MIN_TERMS &&
  (draft.terms ?? 0) <= MAX_TERMS &&
  (draft.coupon === undefined || draft.coupon.trim() === '' || COUPON_PATTERN.test(draft.coupon.trim()));

const couponOf = (draft: PurchaseDraft) => {
  const code = draft.coupon.trim();
  return code === '' ? {} : { coupon: code };
};

/** The body of POST /v1/user-packages: a quote (`quote: true`) or the purchase itself. */
export const buyRequest = (packageId: number, draft: PurchaseDraft, quote: boolean): UserPackageBuy => ({
  package_id: packageId,
  term: draft.term,
  terms: draft.terms,
  ...couponOf(draft),
  ...(quote && { quote: true }),
});

/** The body of PUT /v1/user-packages/{id} that renews: a quote or the renewal itself. */
export const renewRequest = (draft: PurchaseDraft, quote: boolean): { renew: UserPackageRenew } => ({
  renew: { term: draft.term, terms: draft.terms, ...couponOf(draft), ...(quote && { quote: true }) },
});
