import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Settings } from '../settings/settings.service.ts';
import { accountKey } from '../users/users.repository.ts';

/**
 * Brute-force defence. Failures per account or per IP within the window make a captcha necessary;
 * only an IP is ever throttled, so an attacker can never lock the real user out of an account.
 */
export async function recentFailures(db: Kysely<Database>, settings: Settings, account: string, ip: string) {
  const since = Date.now() - settings.login_failure_window_seconds * 1000;
  const count = (column: 'account_key' | 'ip', value: string) =>
    db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(column, '=', value)
      .where('success', '=', 0)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  const [byAccount, byIp] = await Promise.all([count('account_key', accountKey(account)), count('ip', ip)]);
  return { byAccount, byIp };
}

export const captchaRequired = (settings: Settings, failures: { byAccount: number; byIp: number }) =>
  failures.byAccount >= settings.login_failure_limit || failures.byIp >= settings.login_failure_limit;

export const ipThrottled = (settings: Settings, failures: { byIp: number }) =>
  failures.byIp >= settings.login_ip_throttle_limit;

/** One sign-in attempt, for the guard above and the login log (GET /v1/log/login). */
export async function recordLoginAttempt(
  db: Kysely<Database>,
  attempt: {
    account: string;
    ip: string;
    userAgent?: string;
    userId: number | null;
    success: boolean;
    reason: string;
    method?: 'password' | 'totp' | 'recovery' | 'key';
  },
) {
  await db
    .insertInto('login_attempts')
    .values({
      account_key: accountKey(attempt.account),
      ip: attempt.ip,
      user_agent: (attempt.userAgent ?? '').slice(0, 512),
      user_id: attempt.userId,
      success: attempt.success ? 1 : 0,
      reason: attempt.reason,
      method: attempt.method ?? 'password',
      created_at: Date.now(),
    })
    .execute();
}
