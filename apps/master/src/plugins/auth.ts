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

/** Sets the caller on the request, or refuses it; an API key also has its own limits checked. */
function admit(request: FastifyRequest, auth: Authenticated | null): undefined {
  request.auth = auth;
  if (!auth) throw new AppError('login_required', 'please sign in');
  const { apiKey } = auth;
  if (apiKey) checkKeyUse(apiKey, { ip: request.ip, method: request.method, route: request.routeOptions.url ?? '' });
  return undefined;
}

/** The live session (or API key) of a token with its enabled user, from the database (by the token's hash). */
async function lookUp(db: Kysely<Database>, request: FastifyRequest, token: string, now: number) {
  const generation = sessionCache.generation();
  const tokenHash = hashToken(token);
  if (isKeyToken(token)) {
    const grant = await resolveKeyToken(db, tokenHash, { ip: request.ip, now });
    if (grant) sessionCache.set(token, grant, generation, now);
    return grant;
  }
  const row = await findLiveSession(db, tokenHash, now);
  if (row?.status !== 'enabled') return null;
  const { session_id, session_expires_at, session_impersonator_id, ...user } = row;
  const session = {
    user,
    sessionId: session_id,
    expiresAt: session_expires_at,
    impersonatorId: session_impersonator_id,
  };
  sessionCache.set(token, session, generation, now);
  return session;
}

/**
 * Resolves the Access-Token header to a live session of an enabled user (or an API key) and sets
 * `request.auth`, or throws `login_required`. A cached caller is admitted without a promise (most
 * calls) and without hashing the token: only a cache miss hashes it and returns a promise, settled
 * once the database answered.
 */
function authenticate(db: Kysely<Database>, request: FastifyRequest): Promise<void> | undefined {
  const token = request.headers[TOKEN_HEADER];
  if (typeof token !== 'string' || token.length < 16 || token.length > 256) return admit(request, null);
  const now = Date.now();
  const cached = sessionCache.get(token, now);
  if (cached) return admit(request, cached);
  return lookUp(db, request, token, now).then((found) => admit(request, found));
}

async function authPlugin(app: FastifyInstance, options: { db: Kysely<Database> }) {
  app.decorateRequest('auth', null);
  app.decorate('authenticate', (request: FastifyRequest) => authenticate(options.db, request));
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Sets `request.auth` from the Access-Token header or throws `login_required`: at once when the
     * caller is cached, else through the promise it returns (see route-policy.ts, its one user).
     */
    authenticate(request: FastifyRequest): Promise<void> | undefined;
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
