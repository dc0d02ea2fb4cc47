import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { ApiKeyGrant } from '../modules/api-keys/api-key-grant.ts';
import { checkKeyUse, isKeyToken, resolveKeyToken } from '../modules/api-keys/key-auth.ts';
import { sessionCache } from '../modules/auth/session-cache.ts';
import { findLiveSession } from '../modules/auth/sessions.repository.ts';
import { hashToken } from '../modules/auth/tokens.ts';
import type { UserRow } from '../modules/users/users.repository.ts';

export interface Authenticated {
  user: UserRow;
  sessionId: number;
  expiresAt: number;
  /** Set when the caller presented an API key (`Access-Token: <key_id>.<secret>`) instead of a session token. */
  apiKey?: ApiKeyGrant;
  /** The admin signed in as this user (impersonation), or null. */
  impersonatorId?: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Authenticated | null;
  }
}

export const TOKEN_HEADER = 'access-token';

/** Resolves the Access-Token header to a live session of an enabled user, or null. */
async function resolveAuth(db: Kysely<Database>, request: FastifyRequest): Promise<Authenticated | null> {
  const token = request.headers[TOKEN_HEADER];
  if (typeof token !== 'string' || token.length < 16 || token.length > 256) return null;
  const tokenHash = hashToken(token);
  const now = Date.now();
  const cached = sessionCache.get(tokenHash, now);
  if (cached) return cached;
  const generation = sessionCache.generation();
  if (isKeyToken(token)) return resolveKeyToken(db, tokenHash, generation, { ip: request.ip, now });
  const row = await findLiveSession(db, tokenHash, now);
  if (row?.status !== 'enabled') return null;
  const { session_id, session_expires_at, session_impersonator_id, ...user } = row;
  const session = {
    user,
    sessionId: session_id,
    expiresAt: session_expires_at,
    impersonatorId: session_impersonator_id,
  };
  sessionCache.set(tokenHash, session, generation, now);
  return session;
}

async function authPlugin(app: FastifyInstance, options: { db: Kysely<Database> }) {
  app.decorateRequest('auth', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    request.auth = await resolveAuth(options.db, request);
    if (!request.auth) throw new AppError('login_required', 'please sign in');
    const { apiKey } = request.auth;
    if (apiKey) checkKeyUse(apiKey, { ip: request.ip, method: request.method, route: request.routeOptions.url ?? '' });
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for folders of routes that need a signed-in user. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

export const auth = fp(authPlugin, { name: 'auth' });

/** The signed-in caller; only valid inside routes guarded by `authenticate`. */
export function caller(request: FastifyRequest): Authenticated {
  if (!request.auth) throw new AppError('login_required', 'please sign in');
  return request.auth;
}

export const clientInfo = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
});
