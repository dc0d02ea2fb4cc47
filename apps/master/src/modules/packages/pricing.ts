import { type PriceQuote, TERM_MONTHS, type Term } from '@rampart/contracts';
import { AppError, invalidParam } from '../../errors.ts';
import { exactCents } from './bounds.ts';
import { type CouponRow, type Db, idList, type PackageRow } from './catalogue.repository.ts';

/**
 * The price of a purchase or a renewal: the term's price times the terms, less the term's discount
 * (the package's own, else the one for every package), less a coupon. Whole cents throughout;
 * percentages round down the amount taken off, so the buyer never pays a fraction of a cent.
 */

export interface Quote extends PriceQuote {
  couponRow: CouponRow | null;
}

export const termPrice = (
  row: Pick<PackageRow, 'price_month' | 'price_quarter' | 'price_year'>,
  term: Term,
): number | null => (term === 'month' ? row.price_month : term === 'quarter' ? row.price_quarter : row.price_year);

const percentOf = (amount: number, percent: number) => Math.floor((amount * percent) / 100);

/** Why a coupon cannot be used on this purchase, or null when it can. */
export async function couponRefusal(
  db: Db,
  coupon: CouponRow,
  userId: number,
  packageId: number,
  amount: number,
  now: number,
): Promise<string | null> {
  if (coupon.enabled !== 1) return 'is disabled';
  if (coupon.starts_at !== null && now < coupon.starts_at)
    return `is valid from ${new Date(coupon.starts_at).toISOString()}`;
  if (coupon.ends_at !== null && now >= coupon.ends_at) return `expired at ${new Date(coupon.ends_at).toISOString()}`;
  const packages = idList(coupon.package_ids);
  if (packages.length > 0 && !packages.includes(packageId)) return `does not apply to package ${packageId}`;
  if (amount < coupon.min_spend) return `needs a spend of at least ${(coupon.min_spend / 100).toFixed(2)}`;
  if (coupon.used >= coupon.uses_total) return 'has been used up';
  const mine = await db
    .selectFrom('coupon_history')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('coupon_id', '=', coupon.id)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(mine.n) >= coupon.uses_per_user) return `was already used ${mine.n} time(s), the most one user may`;
  return null;
}

export async function quotePackage(
  db: Db,
  request: { userId: number; pkg: PackageRow; term: Term; terms: number; coupon?: string | undefined },
  now = Date.now(),
): Promise<Quote> {
  const { pkg, term, terms, userId } = request;
  const price = termPrice(pkg, term);
  if (price === null) throw invalidParam('term', `package ${pkg.name} is not sold by the ${term}`);
  const listPrice = exactCents('terms', price * terms);
  const discounts = await db
    .selectFrom('discounts')
    .select(['package_id', 'percent'])
    .where('term', '=', term)
    .where((eb) => eb.or([eb('package_id', '=', pkg.id), eb('package_id', 'is', null)]))
    .execute();
  const discountPercent = (discounts.find((row) => row.package_id === pkg.id) ?? discounts[0])?.percent ?? 0;
  const discount = percentOf(listPrice, discountPercent);
  let couponRow: CouponRow | null = null;
  let couponOff = 0;
  if (request.coupon) {
    const code = request.coupon.toUpperCase();
    couponRow = (await db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst()) ?? null;
    if (!couponRow) throw new AppError('not_found', `coupon: ${code} does not exist`);
    const afterDiscount = listPrice - discount;
    const refusal = await couponRefusal(db, couponRow, userId, pkg.id, afterDiscount, now);
    if (refusal) throw invalidParam('coupon', `${code} ${refusal}`);
    couponOff = Math.min(
      afterDiscount,
      couponRow.kind === 'percent' ? percentOf(afterDiscount, couponRow.value) : couponRow.value,
    );
  }
  const user = await db.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirst();
  return {
    package_id: pkg.id,
    term,
    terms,
    list_price: listPrice,
    discount_percent: discountPercent,
    discount,
    coupon: couponRow?.code ?? null,
    coupon_off: couponOff,
    amount: listPrice - discount - couponOff,
    balance: user?.balance ?? 0,
    couponRow,
  };
}

/** `terms` terms after `from` (calendar months; the 31st becomes the month's last day). */
export function addTerms(from: number, term: Term, terms: number): number {
  return addMonths(from, TERM_MONTHS[term] * terms);
}

export function addMonths(from: number, months: number): number {
  const date = new Date(from);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date.getTime();
}
