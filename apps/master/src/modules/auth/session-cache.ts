import type { ApiKeyGrant } from '../api-keys/api-key-grant.ts';
import type { UserRow } from '../users/user-row.ts';

export interface CachedSession {
  user: UserRow;
  sessionId: number;
  expiresAt: number;
  /** Set when the caller presented an API key instead of a session token. */
  apiKey?: ApiKeyGrant;
  /** The admin signed in as this user (impersonation), or null. */
  impersonatorId?: number | null;
}

/**
 * Live sessions by token hash, so that authenticating a call costs no query. Every repository
 * function that writes sessions or users forgets the affected entries at once, so logout, refresh,
 * password changes and disabling a user take effect on the next request in this process. Entries
 * also age out after MAX_AGE_MS, which bounds staleness from writers outside this process.
 */
const MAX_AGE_MS = 2000;
const MAX_ENTRIES = 50_000;

interface Entry extends CachedSession {
  cachedAt: number;
}

const byToken = new Map<string, Entry>();
// Bumped on every invalidation: a lookup that started before one must not cache what it read.
let generation = 0;

export const sessionCache = {
  get(tokenHash: string, now: number): CachedSession | undefined {
    const entry = byToken.get(tokenHash);
    if (!entry) return undefined;
    if (now - entry.cachedAt > MAX_AGE_MS || entry.expiresAt <= now) {
      byToken.delete(tokenHash);
      return undefined;
    }
    return entry;
  },
  generation: () => generation,
  set(tokenHash: string, session: CachedSession, readAtGeneration: number, now: number) {
    if (readAtGeneration !== generation) return;
    if (byToken.size >= MAX_ENTRIES) byToken.delete(byToken.keys().next().value as string);
    byToken.set(tokenHash, { ...session, cachedAt: now });
  },
  forgetUser(userId: number) {
    generation++;
    for (const [tokenHash, entry] of byToken) if (entry.user.id === userId) byToken.delete(tokenHash);
  },
  forgetSession(sessionId: number) {
    generation++;
    for (const [tokenHash, entry] of byToken) if (entry.sessionId === sessionId) byToken.delete(tokenHash);
  },
};
