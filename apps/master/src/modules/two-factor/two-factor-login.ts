import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import { recordLoginAttempt } from '../auth/login-guard.ts';
import type { UserRow } from '../users/users.repository.ts';
import {
  countChallengeMiss,
  dropChallenges,
  findLiveChallenge,
  findTwoFactor,
  openChallenge,
} from './two-factor.repository.ts';
import { verifySecondFactor } from './two-factor.service.ts';

/** How long a proven password waits for its code, and how many wrong codes it takes. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const CHALLENGE_ATTEMPTS = 5;

/**
 * True when this address proved the account's password moments ago and its code is awaited: that
 * second call may skip the image captcha (solved with the first) and the login policy says so.
 */
export async function secondFactorAwaited(db: Kysely<Database>, userId: number, ip: string, now = Date.now()) {
  const challenge = await findLiveChallenge(db, userId, ip, now);
  return challenge !== undefined && challenge.attempts < CHALLENGE_ATTEMPTS;
}

/** A wrong password ends the wait: the captcha skip is for the one who just proved it. */
export const endSecondFactorWait = (db: Kysely<Database>, userId: number, ip: string) => dropChallenges(db, userId, ip);

/**
 * The second step of a sign-in whose password was right: nothing for users without two-factor
 * sign-in, otherwise `code` must be a current TOTP code or an unused recovery code. Answers the
 * method for the login log.
 */
export async function checkSecondFactor(
  db: Kysely<Database>,
  secrets: SecretBox,
  user: UserRow,
  code: string | undefined,
  client: { ip: string; userAgent: string; account: string },
  now = Date.now(),
): Promise<'password' | 'totp' | 'recovery'> {
  if ((await findTwoFactor(db, user.id))?.enabled_at == null) return 'password';
  if (!code) {
    await openChallenge(db, user.id, client.ip, now + CHALLENGE_TTL_MS);
    throw new AppError(
      'two_factor_required',
      'code: enter the 6-digit code from your authenticator app, or a recovery code',
    );
  }
  const method = await verifySecondFactor(db, secrets, user.id, code, now);
  if (method) {
    await dropChallenges(db, user.id);
    return method;
  }
  const challenge = await findLiveChallenge(db, user.id, client.ip, now);
  if (challenge) {
    if (challenge.attempts + 1 >= CHALLENGE_ATTEMPTS) await dropChallenges(db, user.id, client.ip);
    else await countChallengeMiss(db, challenge.id, challenge.attempts + 1);
  }
  await recordLoginAttempt(db, {
    ...client,
    userId: user.id,
    success: false,
    reason: 'two_factor',
    method: /^\s*[0-9]{6}\s*$/.test(code) ? 'totp' : 'recovery',
  });
  throw new AppError('two_factor_invalid', 'code: the code is wrong or was used already; wait for the next one');
}
