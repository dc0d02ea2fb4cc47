import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findUserByEmail, findUserByPhone } from '../users/users.repository.ts';
import type { Notifier } from './notifier.ts';

/**
 * Whether the sign-in just recorded is the user's first from this address while they have signed in
 * from others before (a brand-new account's first sign-in is not news).
 */
async function firstFromAddress(db: Kysely<Database>, userId: number, ip: string) {
  const [here, elsewhere] = await Promise.all([
    db
      .selectFrom('login_attempts')
      .select('id')
      .where('user_id', '=', userId)
      .where('success', '=', 1)
      .where('ip', '=', ip)
      .limit(2)
      .execute(),
    db
      .selectFrom('login_attempts')
      .select('id')
      .where('user_id', '=', userId)
      .where('success', '=', 1)
      .where('ip', '!=', ip)
      .limit(1)
      .execute(),
  ]);
  return here.length <= 1 && elsewhere.length > 0;
}

/** After a successful sign-in: a 'security' message when it came from an address not seen before. */
export async function noticeSignIn(
  db: Kysely<Database>,
  notifier: Notifier,
  user: { id: number },
  client: { ip: string; userAgent: string },
) {
  try {
    if (!(await firstFromAddress(db, user.id, client.ip))) return;
    await notifier.notify(user.id, 'security', {
      title: 'New sign-in to your account',
      body: `Your account was signed in from a new address: ${client.ip} (${client.userAgent || 'unknown client'}) at ${new Date().toISOString()}. If this was not you, change your password now.`,
    });
  } catch (error) {
    notifier.log.warn({ err: error }, 'the new sign-in notice was not sent');
  }
}

/** The user whose password a successful call changed: the signed-in user, or the account a reset named. */
async function passwordChangedFor(db: Kysely<Database>, request: FastifyRequest): Promise<number | undefined> {
  const body = request.body as { password?: unknown; reset_by?: unknown; email?: unknown; phone?: unknown } | undefined;
  if (typeof body?.password !== 'string') return undefined;
  if (request.method === 'PUT' && request.routeOptions.url === '/v1/user') return request.auth?.user.id;
  if (request.method !== 'POST' || request.routeOptions.url !== '/v1/reset-pass') return undefined;
  const user =
    body.reset_by === 'email' && typeof body.email === 'string'
      ? await findUserByEmail(db, body.email)
      : body.reset_by === 'phone' && typeof body.phone === 'string'
        ? await findUserByPhone(db, body.phone)
        : undefined;
  return user?.id;
}

/**
 * onResponse hook: a 'security' message after a password was changed (PUT /v1/user with a new
 * password, or POST /v1/reset-pass, answered 200), whichever module serves those calls.
 */
export const passwordChangeNotices =
  (db: Kysely<Database>, notifier: Notifier) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode !== 200 || (request.method !== 'PUT' && request.method !== 'POST')) return;
    try {
      const userId = await passwordChangedFor(db, request);
      if (userId === undefined) return;
      await notifier.notify(userId, 'security', {
        title: 'Your password was changed',
        body: `The password of your account was changed from ${request.ip} at ${new Date().toISOString()}. Your other sessions were signed out. If this was not you, reset your password now.`,
      });
    } catch (error) {
      request.log.warn({ err: error }, 'the password change notice was not sent');
    }
  };
