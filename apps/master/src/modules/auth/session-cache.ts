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
 * Live sessions by the token the caller presents, so that authenticating a call costs no query and
 * no hash (the SHA-256 is only for the database: a cached call skipped a query but still paid it).
 * Every repository function that writes sessions or users forgets the affected entries at once, so
 * logout, refresh, password changes and disabling a user take effect on the next request in this
 * process; with several masters, the forgetting is relayed to the others (modules/cluster/bus.ts),
 * and a request that caused one answers only once the relay has gone out. Entries also age out after MAX_AGE_MS, which bounds staleness from writers outside this
 * process; aged-out entries are swept on the next write, so no token stays in memory for long.
 */
const MAX_AGE_MS = 2000;
const MAX_ENTRIES = 50_000;

interface Entry extends CachedSession {
  cachedAt: number;
}

const byToken = new Map<string, Entry>();
// Bumped on every invalidation: a lookup that started before one must not cache what it read.
let generation = 0;
let sweptAt = 0;

/** Where forgetting is told to other masters (their caches forget too); see modules/cluster. */
export type SessionRelay = (forgot: { user?: number; session?: number }) => void;
const relays = new Set<SessionRelay>();

const aged = (entry: Entry, now: number) => now - entry.cachedAt > MAX_AGE_MS || entry.expiresAt <= now;

export const sessionCache = {
  get(token: string, now: number): CachedSession | undefined {
    const entry = byToken.get(token);
    if (!entry) return undefined;
    if (aged(entry, now)) {
      byToken.delete(token);
      return undefined;
    }
    return entry;
  },
  generation: () => generation,
  set(token: string, session: CachedSession, readAtGeneration: number, now: number) {
    if (readAtGeneration !== generation) return;
    // Also when the clock went back, so that a step back cannot stop the sweeps.
    if (now - sweptAt > MAX_AGE_MS || now < sweptAt) {
      sweptAt = now;
      for (const [key, entry] of byToken) if (aged(entry, now)) byToken.delete(key);
    }
    if (byToken.size >= MAX_ENTRIES) byToken.delete(byToken.keys().next().value as string);
    byToken.set(token, { ...session, cachedAt: now });
  },
  /** `relay` false: the other masters already know (they told this one). */
  forgetUser(userId: number, relay = true) {
    generation++;
    for (const [token, entry] of byToken) if (entry.user.id === userId) byToken.delete(token);
    if (relay) for (const send of relays) send({ user: userId });
  },
  forgetSession(sessionId: number, relay = true) {
    generation++;
    for (const [token, entry] of byToken) if (entry.sessionId === sessionId) byToken.delete(token);
    if (relay) for (const send of relays) send({ session: sessionId });
  },
  /** Forgets every session (after this master may have missed what others told it). */
  forgetAll() {
    generation++;
    byToken.clear();
  },
  /** Tells `relay` of every forgetting from now on; answers how to stop. */
  relayTo(relay: SessionRelay) {
    relays.add(relay);
    return () => void relays.delete(relay);
  },
};
