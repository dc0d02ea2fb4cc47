import type { FieldRequirement, RegisterBody, UserWithToken } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { codeChannels } from '../messages/code-channels.ts';
import type { Messenger } from '../messages/messenger.ts';
import { checkPasswordPolicy, loadSettings } from '../settings/settings.service.ts';
import {
  findUserByAccount,
  findUserByEmail,
  findUserByPhone,
  insertUser,
  type UserRow,
} from '../users/users.repository.ts';
import { type ClientInfo, openSession } from './auth.service.ts';
import { hashPassword } from './passwords.ts';
import { consumeVerifyCode } from './verify-codes.ts';

function checkRequirement(field: string, requirement: FieldRequirement, value: string | undefined) {
  if (requirement === 'required' && !value) throw new AppError('invalid_param', `${field}: is required`);
  if (requirement === 'hidden' && value) throw new AppError('invalid_param', `${field}: is not accepted here`);
}

/**
 * Registers an ordinary user (type 2) and signs them in. An email or phone is verified with its code
 * only while codes can be sent on that channel (code-channels.ts); otherwise it is taken as given,
 * so a required phone never blocks registration on a master without an SMS provider.
 */
export async function register(
  db: Kysely<Database>,
  body: RegisterBody,
  client: ClientInfo,
  messenger: Pick<Messenger, 'transports'>,
): Promise<UserWithToken> {
  const settings = await loadSettings(db);
  const channels = codeChannels(settings, messenger);
  if (!settings.register_open) throw new AppError('register_closed', 'registration is closed');
  if (body.accept_agreement !== true) {
    throw new AppError('agreement_required', 'accept_agreement: you must accept the user agreement');
  }
  checkRequirement('email', settings.register_email, body.email);
  checkRequirement('phone', settings.register_phone, body.phone);
  checkRequirement('qq', settings.register_qq, body.qq);
  checkPasswordPolicy(settings, body.password);

  if (await findUserByAccount(db, body.username)) {
    throw new AppError('account_exists', 'username: this username is already taken');
  }
  if (body.email && (await findUserByEmail(db, body.email))) {
    throw new AppError('account_exists', 'email: this email address is already registered');
  }
  if (body.phone && (await findUserByPhone(db, body.phone))) {
    throw new AppError('account_exists', 'phone: this phone number is already registered');
  }
  if (body.email && channels.email_code)
    await consumeVerifyCode(db, settings, { channel: 'email', target: body.email, purpose: 'register' }, body.captcha);
  if (body.phone && channels.phone_code) {
    await consumeVerifyCode(
      db,
      settings,
      { channel: 'sms', target: body.phone, purpose: 'register' },
      body.phone_captcha,
    );
  }

  const passwordHash = await hashPassword(body.password);
  let user: UserRow;
  try {
    user = await insertUser(
      db,
      { username: body.username, passwordHash, type: 2, access: [], email: body.email, phone: body.phone, qq: body.qq },
      Date.now(),
    );
  } catch (error) {
    // Two registrations raced for the same name: the unique index decided.
    if (/unique/i.test(String(error)))
      throw new AppError('account_exists', 'username, email or phone is already registered');
    throw error;
  }
  return openSession(db, user, client);
}
