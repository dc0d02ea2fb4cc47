import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import svgCaptcha from 'svg-captcha';
import type { Database } from '../../db/schema.ts';
import { hashToken } from './tokens.ts';

const TTL_MS = 5 * 60 * 1000;

/** A new image captcha; only the hash of its answer is kept, for five minutes, for one try. */
export async function createImageCaptcha(db: Kysely<Database>) {
  const { text, data } = svgCaptcha.create({ size: 5, noise: 3, ignoreChars: '0oO1iIlL', width: 150, height: 50 });
  const id = randomBytes(16).toString('base64url');
  const now = Date.now();
  await db.deleteFrom('captchas').where('expires_at', '<', now).execute();
  await db
    .insertInto('captchas')
    .values({ id, answer_hash: hashToken(text.toLowerCase()), expires_at: now + TTL_MS })
    .execute();
  return { captcha: id, svg: data };
}

/** True when the answer matches; the captcha is spent either way. */
export async function solveImageCaptcha(db: Kysely<Database>, id: string, answer: string): Promise<boolean> {
  const row = await db.deleteFrom('captchas').where('id', '=', id).returningAll().executeTakeFirst();
  return !!row && row.expires_at > Date.now() && row.answer_hash === hashToken(answer.trim().toLowerCase());
}
