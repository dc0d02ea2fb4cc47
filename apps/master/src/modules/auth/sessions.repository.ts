import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sessionCache } from './session-cache.ts';

export interface NewSession {
  userId: number;
  tokenHash: string;
  ip: string;
  userAgent: string;
  now: number;
  expiresAt: number;
  /** The admin signed in as the user (impersonation); absent for the user's own sign-in. */
  impersonatorId?: number | null;
}

export async function insertSession(db: Kysely<Database>, session: NewSession): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      user_id: session.userId,
      impersonator_id: session.impersonatorId ?? null,
      token_hash: session.tokenHash,
      ip: session.ip,
      user_agent: session.userAgent.slice(0, 512),
      created_at: session.now,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** The live session of a token hash with its user, in one query (the hot path of every call). */
export async function findLiveSession(db: Kysely<Database>, tokenHash: string, now: number) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id as session_id',
      'sessions.expires_at as session_expires_at',
      'sessions.impersonator_id as session_impersonator_id',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
}

export async function revokeSession(db: Kysely<Database>, sessionId: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).execute();
  sessionCache.forgetSession(sessionId);
}

export async function revokeUserSessions(db: Kysely<Database>, userId: number, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  sessionCache.forgetUser(userId);
}

/** Ends every session of the user but the one given (a password change keeps the caller signed in). */
export async function revokeOtherSessions(db: Kysely<Database>, userId: number, keepSessionId: number, now: number) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .execute();
  sessionCache.forgetUser(userId);
}
