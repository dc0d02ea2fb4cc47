import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
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

/**
 * onResponse hook: a 'security' message after the signed-in user changed their password
 * (PUT /v1/user with a password answered 200), whichever module serves that call.
 */
export const passwordChangeNotices = (notifier: Notifier) => async (request: FastifyRequest, reply: FastifyReply) => {
  if (request.method !== 'PUT' || request.routeOptions.url !== '/v1/user' || reply.statusCode !== 200) return;
  const body = request.body as { password?: unknown } | undefined;
  if (typeof body?.password !== 'string' || !request.auth) return;
  try {
    await notifier.notify(request.auth.user.id, 'security', {
      title: 'Your password was changed',
      body: `The password of your account was changed from ${request.ip} at ${new Date().toISOString()}. Your other sessions were signed out. If this was not you, reset your password now.`,
    });
  } catch (error) {
    request.log.warn({ err: error }, 'the password change notice was not sent');
  }
};
