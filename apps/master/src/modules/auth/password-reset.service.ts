import type { ResetPassBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { checkPasswordPolicy, loadSettings } from '../settings/settings.service.ts';
import { findUserByEmail, findUserByPhone, updateUser } from '../users/users.repository.ts';
import { hashPassword } from './passwords.ts';
import { sessionCache } from './session-cache.ts';
import { revokeUserSessions } from './sessions.repository.ts';
import { consumeVerifyCode } from './verify-codes.ts';

/** Sets a new password after the emailed or texted code checks out, and signs out every session. */
export async function resetPassword(db: Kysely<Database>, body: ResetPassBody): Promise<void> {
  const settings = await loadSettings(db);
  checkPasswordPolicy(settings, body.password);
  const byEmail = body.reset_by === 'email';
  const target = byEmail ? body.email : body.phone;
  if (!target)
    throw new AppError('invalid_param', `${byEmail ? 'email' : 'phone'}: is required to reset by ${body.reset_by}`);
  await consumeVerifyCode(
    db,
    settings,
    { channel: byEmail ? 'email' : 'sms', target, purpose: 'reset' },
    byEmail ? body.captcha : body.phone_captcha,
  );
  const user = byEmail ? await findUserByEmail(db, target) : await findUserByPhone(db, target);
  // A code is only ever sent to an address that belongs to an account, so this is a race at most.
  if (!user) throw new AppError('verify_code_invalid', 'the code does not match an account');
  const passwordHash = await hashPassword(body.password);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await updateUser(trx, user.id, { passwordHash }, now);
    await revokeUserSessions(trx, user.id, now);
  });
  sessionCache.forgetUser(user.id); // again after commit, as in updateCurrentUser
}
