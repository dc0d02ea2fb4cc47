import { describe, expect, it } from 'vitest';
import type { UserRow } from '../users/users.repository.ts';
import { sessionCache } from './session-cache.ts';

const user = (id: number) => ({ id }) as UserRow;
const session = (userId: number, sessionId: number) => ({ user: user(userId), sessionId, expiresAt: 10_000_000 });

describe('sessionCache', () => {
  it('serves a cached session until it is 2 s old', () => {
    sessionCache.set('age', session(1, 1), sessionCache.generation(), 1000);
    expect(sessionCache.get('age', 2999)?.sessionId).toBe(1);
    expect(sessionCache.get('age', 3001)).toBeUndefined();
  });

  it('forgets every session of a user and a single session by id', () => {
    sessionCache.set('u7-a', session(7, 70), sessionCache.generation(), 0);
    sessionCache.set('u7-b', session(7, 71), sessionCache.generation(), 0);
    sessionCache.set('u8', session(8, 80), sessionCache.generation(), 0);
    sessionCache.forgetSession(80);
    expect(sessionCache.get('u8', 1)).toBeUndefined();
    expect(sessionCache.get('u7-a', 1)).toBeDefined();
    sessionCache.forgetUser(7);
    expect(sessionCache.get('u7-a', 1)).toBeUndefined();
    expect(sessionCache.get('u7-b', 1)).toBeUndefined();
  });

  it('does not cache a read that an invalidation overtook', () => {
    const before = sessionCache.generation();
    sessionCache.forgetUser(9);
    sessionCache.set('late', session(9, 90), before, 0);
    expect(sessionCache.get('late', 1)).toBeUndefined();
  });

  it('drops an entry whose session has expired', () => {
    sessionCache.set('expired', { ...session(1, 2), expiresAt: 50 }, sessionCache.generation(), 0);
    expect(sessionCache.get('expired', 60)).toBeUndefined();
  });

  it('sweeps aged-out entries on a later write, so no token lingers in memory', () => {
    sessionCache.set('kept-briefly', session(3, 30), sessionCache.generation(), 100_000);
    expect(sessionCache.get('kept-briefly', 100_500)).toBeDefined();
    sessionCache.set('later', session(4, 40), sessionCache.generation(), 103_000);
    // Asked as of a time it was still young: gone all the same, because the write swept it.
    expect(sessionCache.get('kept-briefly', 100_500)).toBeUndefined();
    expect(sessionCache.get('later', 103_500)).toBeDefined();
  });
});
