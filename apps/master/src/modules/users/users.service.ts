import type { UpdateCurrentUserBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { sessionCache } from '../auth/session-cache.ts';
import { revokeOtherSessions } from '../auth/sessions.repository.ts';
import { findUserByEmail, findUserByPhone, type UserRow, updateUser } from './users.repository.ts';

/** PUT /v1/user: profile fields, and a new password only with the current one. Other sessions end on a password change. */
export async function updateCurrentUser(
  db: Kysely<Database>,
  user: UserRow,
  sessionId: number,
  body: UpdateCurrentUserBody,
) {
  if (body.password !== undefined) {
    if (!body.old_password) throw new AppError('invalid_param', 'old_password: is required to set a new password');
    if (!(await verifyPassword(body.old_password, user.password_hash))) {
      throw new AppError('bad_credentials', 'old_password: the current password is wrong');
    }
  }
  if (body.email && body.email.toLowerCase() !== user.email.toLowerCase()) {
    const other = await findUserByEmail(db, body.email);
    if (other && other.id !== user.id)
      throw new AppError('account_exists', 'email: this email address is already registered');
  }
  if (body.phone && body.phone !== user.phone) {
    const other = await findUserByPhone(db, body.phone);
    if (other && other.id !== user.id)
      throw new AppError('account_exists', 'phone: this phone number is already registered');
  }
  const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
  const now = Date.now();
  const result = await db.transaction().execute(async (trx) => {
    const updated = await updateUser(
      trx,
      user.id,
      { name: body.name, email: body.email, phone: body.phone, qq: body.qq, passwordHash },
      now,
    );
    if (passwordHash) await revokeOtherSessions(trx, user.id, sessionId, now);
    return updated;
  });
  // Forget again after commit: a read between the in-transaction forget and the commit saw old rows.
  sessionCache.forgetUser(user.id);
  return result;
}
