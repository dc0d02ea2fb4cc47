import type { LoginBody, UserWithToken } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import { loadSettings, sessionTtlMs } from '../settings/settings.service.ts';
import { checkSecondFactor, endSecondFactorWait, secondFactorAwaited } from '../two-factor/two-factor-login.ts';
import { findUserByAccount, presentUser, type UserRow } from '../users/users.repository.ts';
import { solveImageCaptcha } from './image-captcha.ts';
import { captchaRequired, ipThrottled, recentFailures, recordLoginAttempt } from './login-guard.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { sessionCache } from './session-cache.ts';
import { insertSession, revokeSession } from './sessions.repository.ts';
import { hashToken, newToken } from './tokens.ts';

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

// Compared against when the account does not exist, so timing does not reveal which accounts do.
const decoyHash = hashPassword('decoy password that never matches');

export async function openSession(db: Kysely<Database>, user: UserRow, client: ClientInfo): Promise<UserWithToken> {
  const token = newToken();
  const now = Date.now();
  // As long as /sys/setting says (one day by default).
  const expiresAt = now + sessionTtlMs(await loadSettings(db));
  await insertSession(db, { userId: user.id, tokenHash: hashToken(token), ...client, now, expiresAt });
  return { ...presentUser(user), access_token: token, expires_at: new Date(expiresAt).toISOString() };
}

export async function login(
  db: Kysely<Database>,
  secrets: SecretBox,
  body: LoginBody,
  client: ClientInfo,
): Promise<UserWithToken> {
  const settings = await loadSettings(db);
  const failures = await recentFailures(db, settings, body.account, client.ip);
  if (ipThrottled(settings, failures)) {
    const minutes = Math.ceil(settings.login_failure_window_seconds / 60);
    throw new AppError('throttled', `too many failed sign-ins from your address; try again within ${minutes} minutes`);
  }
  const user = await findUserByAccount(db, body.account);
  // Without a captcha id, `code` is the second factor; the call that sends it after a proven password
  // (and a solved captcha, if one was needed) from this address needs no new captcha.
  const secondFactorCode = body.captcha ? undefined : body.code;
  const awaited = Boolean(user && secondFactorCode) && (await secondFactorAwaited(db, user?.id ?? 0, client.ip));
  if (!awaited && captchaRequired(settings, failures)) {
    const solved =
      Boolean(body.captcha && body.code) && (await solveImageCaptcha(db, body.captcha ?? '', body.code ?? ''));
    if (!solved) {
      // In the login log; it counts as a failure, so an address that keeps failing the captcha is throttled too.
      await recordLoginAttempt(db, {
        ...client,
        account: body.account,
        userId: user?.id ?? null,
        success: false,
        reason: 'captcha',
      });
    }
    if (!body.captcha || !body.code) {
      throw new AppError('captcha_required', 'enter the characters shown in the image');
    }
    if (!solved) throw new AppError('captcha_invalid', 'the characters did not match the image; try the new one');
  }
  const passwordOk = await verifyPassword(body.password, user?.password_hash ?? (await decoyHash));
  if (!user || !passwordOk) {
    if (user && awaited) await endSecondFactorWait(db, user.id, client.ip);
    await recordLoginAttempt(db, {
      ...client,
      account: body.account,
      userId: user?.id ?? null,
      success: false,
      reason: 'bad_credentials',
    });
    throw new AppError('bad_credentials', 'Wrong account or password');
  }
  if (user.status !== 'enabled') {
    await recordLoginAttempt(db, {
      ...client,
      account: body.account,
      userId: user.id,
      success: false,
      reason: 'disabled',
    });
    throw new AppError('account_disabled', 'this account is disabled; contact the administrator');
  }
  const method = await checkSecondFactor(db, secrets, user, secondFactorCode, { ...client, account: body.account });
  await recordLoginAttempt(db, {
    ...client,
    account: body.account,
    userId: user.id,
    success: true,
    reason: '',
    method,
  });
  return openSession(db, user, client);
}

/** The session a refresh replaces: whose it is, until when, and who opened it on the user's behalf. */
export interface RefreshedFrom {
  user: UserRow;
  sessionId: number;
  expiresAt: number;
  impersonatorId?: number | null | undefined;
}

/**
 * Refresh: a new token replaces the one presented, which stops working at once. A session an admin
 * opened as the user (impersonation) stays one: the new token carries the same admin and ends when the
 * old one would have, so a refresh never turns it into a longer or unmarked session.
 */
export async function refreshSession(db: Kysely<Database>, from: RefreshedFrom, client: ClientInfo) {
  const token = newToken();
  const now = Date.now();
  const impersonatorId = from.impersonatorId ?? null;
  const expiresAt = impersonatorId === null ? now + sessionTtlMs(await loadSettings(db)) : from.expiresAt;
  await db.transaction().execute(async (trx) => {
    await insertSession(trx, {
      userId: from.user.id,
      tokenHash: hashToken(token),
      ...client,
      now,
      expiresAt,
      impersonatorId,
    });
    await revokeSession(trx, from.sessionId, now);
  });
  // Forget again after commit: a read between the in-transaction forget and the commit saw the old row.
  sessionCache.forgetSession(from.sessionId);
  return { access_token: token, expires_at: new Date(expiresAt).toISOString() };
}
