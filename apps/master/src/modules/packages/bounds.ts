import { USER_PACKAGE_LAST_END, USER_PACKAGE_MAX_YEARS } from '@rampart/contracts';
import { invalidParam } from '../../errors.ts';

/**
 * The bounds every user package date and every price stays within: an end at most 100 years ahead
 * and never past 9999-12-31T23:59:59Z (a four-digit ISO 8601 year; JavaScript dates stop at
 * +275760), and money in whole cents that JavaScript numbers hold exactly (at most 2^53 - 1).
 */

export const LAST_END = Date.parse(USER_PACKAGE_LAST_END);

/** The latest end a change may give a user package now. */
export function latestEnd(now: number): number {
  const date = new Date(now);
  date.setUTCFullYear(date.getUTCFullYear() + USER_PACKAGE_MAX_YEARS);
  return Math.min(date.getTime(), LAST_END);
}

/** Refuses an end past the latest (or not a time at all: a term added past the last date). */
export function checkEnd(field: string, end: number, now: number) {
  const latest = latestEnd(now);
  // `!(end <= latest)` also refuses NaN, what date arithmetic past +275760 answers.
  if (!(end <= latest)) {
    throw invalidParam(
      field,
      `a user package ends at most ${USER_PACKAGE_MAX_YEARS} years ahead, by ${new Date(latest).toISOString()}`,
    );
  }
}

/** A stored time as ISO 8601, clamped to 1970..9999 so that one row out of range never breaks a list. */
export const presentTime = (ms: number) => new Date(Math.min(Math.max(ms, 0), LAST_END)).toISOString();

const MAX_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/** Whole cents as a number, refused (naming `field`) when past what a number holds exactly. */
export function exactCents(field: string, cents: bigint | number): number {
  const exact = typeof cents === 'bigint' ? cents : Number.isSafeInteger(cents) ? BigInt(cents) : null;
  if (exact === null || exact > MAX_CENTS || exact < -MAX_CENTS) {
    throw invalidParam(field, `the price would be more than ${Number.MAX_SAFE_INTEGER} cents`);
  }
  return Number(exact);
}
