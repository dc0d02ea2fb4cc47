import { USER_TYPE, type User, type UserWithToken } from '@rampart/contracts';
import { create } from 'zustand';
import { readCookie, removeCookie, writeCookie } from './cookies.ts';

export const TOKEN_COOKIE = 'token';
/** The signed-in user's id; it keys per-user local storage (opened tabs, settings). */
export const UUID_COOKIE = 'uuid';
export const USER_STORAGE_KEY = 'rampart.user';

const readStoredUser = (): User | null => {
  const raw = localStorage.getItem(USER_STORAGE_KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as User;
  } catch {
    return null;
  }
};

interface SessionState {
  token: string | null;
  user: User | null;
  /** After a login or a registration: the answer carries the user and the token. */
  signIn: (user: UserWithToken) => void;
  setUser: (user: User) => void;
  setToken: (token: string) => void;
  /** Removes the token and uuid cookies and the stored user. */
  clear: () => void;
}

const storeUser = (user: User) => {
  localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
  writeCookie(UUID_COOKIE, String(user.id));
};

export const useSession = create<SessionState>((set) => ({
  token: readCookie(TOKEN_COOKIE),
  user: readCookie(TOKEN_COOKIE) ? readStoredUser() : null,
  signIn: ({ access_token, expires_at: _expiresAt, ...user }) => {
    writeCookie(TOKEN_COOKIE, access_token);
    storeUser(user);
    set({ token: access_token, user });
  },
  setUser: (user) => {
    storeUser(user);
    set({ user });
  },
  setToken: (token) => {
    writeCookie(TOKEN_COOKIE, token);
    set({ token });
  },
  clear: () => {
    removeCookie(TOKEN_COOKIE);
    removeCookie(UUID_COOKIE);
    localStorage.removeItem(USER_STORAGE_KEY);
    set({ token: null, user: null });
  },
}));

/** Where a user lands after signing in (spec §2): admin-home for admins, home for everyone else. */
export const landingPath = (user: Pick<User, 'type'> | null): string =>
  user?.type === USER_TYPE.admin ? '/admin-home' : '/home';
