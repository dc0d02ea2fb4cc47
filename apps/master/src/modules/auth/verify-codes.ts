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
  /** The client address asking: codes are limited per address as well as per target. */
  ip?: string;
}

const HOUR_MS = 60 * 60 * 1000;

const waitText = (ms: number) => (ms <= 60_000 ? `${Math.ceil(ms / 1000)} s` : `${Math.ceil(ms / 60_000)} min`);

/**
 * At most one code a target per resend interval and `verify_codes_per_hour` an hour, and at most
 * `verify_codes_per_ip_hour` an hour to one client address (a script cannot spray addresses).
 */
async function checkSendingRate(
  db: Kysely<Database>,
  settings: Settings,
  to: VerifyCodeTarget,
  target: string,
  now: number,
) {
  const recent = await db
    .selectFrom('verify_codes')
    .select(['created_at', 'purpose'])
    .where('channel', '=', to.channel)
    .where('target', '=', target)
    .where('created_at', '>', now - HOUR_MS)
    .orderBy('created_at', 'desc')
    .execute();
  const last = recent.find((code) => code.purpose === to.purpose);
  const resendMs = last ? Number(last.created_at) + settings.verify_code_resend_seconds * 1000 - now : 0;
  if (resendMs > 0) {
    throw new AppError('too_many_requests', `a code was sent recently; you can ask again in ${waitText(resendMs)}`);
  }
  const oldest = recent[settings.verify_codes_per_hour - 1];
  if (oldest) {
    const wait = waitText(Number(oldest.created_at) + HOUR_MS - now);
    throw new AppError(
      'too_many_requests',
      `at most ${settings.verify_codes_per_hour} codes an hour to the same address; you can ask again in ${wait}`,
    );
  }
  if (!to.ip) return;
  const fromIp = await db
    .selectFrom('verify_codes')
    .select('created_at')
    .where('ip', '=', to.ip)
    .where('created_at', '>', now - HOUR_MS)
    .orderBy('created_at', 'desc')
    .limit(settings.verify_codes_per_ip_hour)
    .execute();
  const oldestFromIp = fromIp[settings.verify_codes_per_ip_hour - 1];
  if (oldestFromIp) {
    const wait = waitText(Number(oldestFromIp.created_at) + HOUR_MS - now);
    throw new AppError(
      'too_many_requests',
      `at most ${settings.verify_codes_per_ip_hour} codes an hour from your address; you can ask again in ${wait}`,
    );
  }
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
  await checkSendingRate(db, settings, to, target, now);
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
      ip: to.ip ?? '',
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
    code,
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
