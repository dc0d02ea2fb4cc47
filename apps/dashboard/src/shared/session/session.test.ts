// @vitest-environment jsdom
import type { UserWithToken } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies.ts';
import { landingPath, USER_STORAGE_KEY, useSession } from './session.ts';

const user: UserWithToken = {
  id: 7,
  account: 'alice',
  username: 'alice',
  name: '',
  email: 'alice@example.com',
  phone: '',
  qq: '',
  type: 2,
  access: [],
  group: null,
  balance: 0,
  status: 'enabled',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  access_token: 'secret-token',
  expires_at: '2026-01-02T00:00:00Z',
};

describe('session', () => {
  it('keeps the token and uuid in cookies and the user in local storage', () => {
    useSession.getState().signIn(user);
    expect(readCookie('token')).toBe('secret-token');
    expect(readCookie('uuid')).toBe('7');
    const stored = JSON.parse(localStorage.getItem(USER_STORAGE_KEY) ?? '{}') as Record<string, unknown>;
    expect(stored.account).toBe('alice');
    expect(stored.access_token).toBeUndefined();
    expect(useSession.getState().token).toBe('secret-token');
  });

  it('forgets everything on clear', () => {
    useSession.getState().signIn(user);
    useSession.getState().clear();
    expect(readCookie('token')).toBeNull();
    expect(readCookie('uuid')).toBeNull();
    expect(localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    expect(useSession.getState()).toMatchObject({ token: null, user: null });
  });

  it('lands admins on admin-home and users on home', () => {
    expect(landingPath({ type: 1 })).toBe('/admin-home');
    expect(landingPath({ type: 2 })).toBe('/home');
  });
});
