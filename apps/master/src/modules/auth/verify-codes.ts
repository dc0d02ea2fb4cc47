import { randomInt } from 'node:crypto';
import type { CaptchaPurpose } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { MessageChannel } from '../messages/messages.repository.ts';
import type { Messenger } from '../messages/messenger.ts';
import type { Settings } from '../settings/settings.service.ts';
import { accountKey } from '../users/users.repository.ts';
import { hashToken } from './tokens.ts';

/** One-time codes sent by email or SMS for registration and password reset. */
export interface VerifyCodeTarget {
  channel: MessageChannel;
  target: string;
  /** `change:<user id>`: a new address or number on a profile, usable by that user only. */
  purpose: CaptchaPurpose | `change:${number}`;
}

const FIELD: Record<MessageChannel, string> = { email: 'captcha', sms: 'phone_captcha' };

export async function issueVerifyCode(
  db: Kysely<Database>,
  messenger: Messenger,
  settings: Settings,
  to: VerifyCodeTarget,
  siteName: string,
) {
  const now = Date.now();
  const target = accountKey(to.target);
  const last = await db
    .selectFrom('verify_codes')
    .select('created_at')
    .where('channel', '=', to.channel)
    .where('target', '=', target)
    .where('purpose', '=', to.purpose)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const waitMs = last ? last.created_at + settings.verify_code_resend_seconds * 1000 - now : 0;
  if (waitMs > 0) {
    throw new AppError('throttled', `a code was sent recently; you can ask again in ${Math.ceil(waitMs / 1000)} s`);
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .insertInto('verify_codes')
    .values({
      channel: to.channel,
      target,
      purpose: to.purpose,
      code_hash: hashToken(code),
      attempts: 0,
      created_at: now,
      expires_at: now + settings.verify_code_ttl_seconds * 1000,
    })
    .execute();
  const minutes = Math.round(settings.verify_code_ttl_seconds / 60);
  const action =
    to.purpose === 'register' ? 'registration' : to.purpose === 'reset' ? 'password reset' : 'contact change';
  await messenger.send({
    channel: to.channel,
    target: to.target,
    subject: `${siteName} ${action} code`,
    body: `Your ${siteName} ${action} code is ${code}. It expires in ${minutes} minutes.`,
  });
  return { expires_in: settings.verify_code_ttl_seconds, resend_after: settings.verify_code_resend_seconds };
}

/** Consumes the newest live code for the target; each wrong try counts against the attempt limit. */
export async function consumeVerifyCode(
  db: Kysely<Database>,
  settings: Settings,
  to: VerifyCodeTarget,
  code: string | undefined,
): Promise<void> {
  const field = FIELD[to.channel];
  if (!code) throw new AppError('invalid_param', `${field}: is required: enter the code that was sent to you`);
  const now = Date.now();
  const row = await db
    .selectFrom('verify_codes')
    .selectAll()
    .where('channel', '=', to.channel)
    .where('target', '=', accountKey(to.target))
    .where('purpose', '=', to.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row || row.attempts >= settings.verify_code_max_attempts) {
    throw new AppError(
      'verify_code_invalid',
      `${field}: the code has expired or was tried too often; ask for a new one`,
    );
  }
  if (row.code_hash !== hashToken(code.trim())) {
    await db
      .updateTable('verify_codes')
      .set({ attempts: row.attempts + 1 })
      .where('id', '=', row.id)
      .execute();
    throw new AppError('verify_code_invalid', `${field}: the code is wrong`);
  }
  await db.updateTable('verify_codes').set({ used_at: now }).where('id', '=', row.id).execute();
}
