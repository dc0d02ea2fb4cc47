import { PROFILE_CODES_PER_HOUR, type UpdateProfileBody } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { AppError } from '../../errors.ts';
import { consumeVerifyCode, issueVerifyCode } from '../auth/verify-codes.ts';
import { checkCodeChannel, codeChannels } from '../messages/code-channels.ts';
import type { MessageChannel } from '../messages/messages.repository.ts';
import type { Messenger } from '../messages/messenger.ts';
import { checkPasswordPolicy, loadSettings } from '../settings/settings.service.ts';
import { accountKey, findUserByEmail, findUserByPhone, type UserRow } from '../users/users.repository.ts';
import { updateCurrentUser } from '../users/users.service.ts';

const HOUR_MS = 60 * 60 * 1000;

/** Codes for a user's own contact change: bound to that user, so no one else can spend one. */
const changePurpose = (userId: number) => `change:${userId}` as const;

const FIELD: Record<MessageChannel, 'email' | 'phone'> = { email: 'email', sms: 'phone' };

async function checkFree(db: Kysely<Database>, user: UserRow, channel: MessageChannel, target: string) {
  const other = channel === 'email' ? await findUserByEmail(db, target) : await findUserByPhone(db, target);
  if (other && other.id !== user.id) {
    const what = channel === 'email' ? 'this email address' : 'this phone number';
    throw new AppError('account_exists', `${FIELD[channel]}: ${what} is already registered`);
  }
}

/** POST /v1/user/email-captcha and …/phone-captcha: a code to the new address, through the messenger. */
export async function sendProfileCode(
  db: Kysely<Database>,
  messenger: Messenger,
  user: UserRow,
  channel: MessageChannel,
  target: string,
  now = Date.now(),
) {
  const current = channel === 'email' ? user.email : user.phone;
  if (accountKey(current) === accountKey(target)) {
    throw new AppError('invalid_param', `${FIELD[channel]}: is your current one already`);
  }
  await checkFree(db, user, channel, target);
  const purpose = changePurpose(user.id);
  const sent = await db
    .selectFrom('verify_codes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('purpose', '=', purpose)
    .where('created_at', '>', now - HOUR_MS)
    .executeTakeFirstOrThrow();
  if (Number(sent.n) >= PROFILE_CODES_PER_HOUR) {
    throw new AppError('throttled', `at most ${PROFILE_CODES_PER_HOUR} codes an hour; try again later`);
  }
  const settings = await loadSettings(db);
  checkCodeChannel(codeChannels(settings, messenger), channel);
  return issueVerifyCode(db, messenger, settings, { channel, target, purpose }, settings.site_name);
}

const changes = (next: string | undefined, current: string) =>
  next !== undefined && next !== '' && accountKey(next) !== accountKey(current);

/**
 * PUT /v1/user: a new email address needs the code sent to it (`captcha`), a new phone number its
 * SMS code (`phone_captcha`); clearing one, or changing only its case, needs none, and neither does
 * one whose channel cannot send codes (code-channels.ts), as at registration. The rest is the
 * users module's update (a new password with the current one ends the other sessions).
 */
export async function updateProfile(
  db: Kysely<Database>,
  user: UserRow,
  sessionId: number,
  body: UpdateProfileBody,
  messenger: Pick<Messenger, 'transports'>,
) {
  const { captcha, phone_captcha, ...fields } = body;
  const settings = await loadSettings(db);
  if (fields.password !== undefined) checkPasswordPolicy(settings, fields.password);
  const channels = codeChannels(settings, messenger);
  const newEmail = changes(fields.email, user.email) ? fields.email : undefined;
  const newPhone = changes(fields.phone, user.phone) ? fields.phone : undefined;
  const emailCode = newEmail !== undefined && channels.email_code;
  const phoneCode = newPhone !== undefined && channels.phone_code;
  if (newEmail) await checkFree(db, user, 'email', newEmail);
  if (newPhone) await checkFree(db, user, 'sms', newPhone);
  // Both codes are named before either is spent: a missing second code does not waste the first.
  if (emailCode && !captcha)
    throw new AppError('invalid_param', 'captcha: is required: the code sent to the new email');
  if (phoneCode && !phone_captcha) {
    throw new AppError('invalid_param', 'phone_captcha: is required: the code sent to the new phone number');
  }
  const purpose = changePurpose(user.id);
  if (emailCode && newEmail) {
    await consumeVerifyCode(db, settings, { channel: 'email', target: newEmail, purpose }, captcha);
  }
  if (phoneCode && newPhone) {
    await consumeVerifyCode(db, settings, { channel: 'sms', target: newPhone, purpose }, phone_captcha);
  }
  return updateCurrentUser(db, user, sessionId, fields).catch((error: unknown) => {
    // Another account took the address between the check and the write: its unique index decided.
    if (isUniqueViolation(error)) throw new AppError('account_exists', 'email or phone: is already registered');
    throw error;
  });
}
