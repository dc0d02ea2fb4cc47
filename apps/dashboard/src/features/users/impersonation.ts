import type { User } from '@rampart/contracts';

/** While an admin is signed in as a user: the admin's own session to go back to, and who is who. */
export interface ImpersonationState {
  adminToken: string;
  adminUser: User;
  account: string;
}

const KEY = 'rampart.impersonation';

// Per tab (sessionStorage): closing the tab forgets the way back, and the hour-long session ends by itself.
export function readImpersonation(): ImpersonationState | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as ImpersonationState) : null;
  } catch {
    return null;
  }
}

export const saveImpersonation = (state: ImpersonationState) => sessionStorage.setItem(KEY, JSON.stringify(state));

export const clearImpersonation = () => sessionStorage.removeItem(KEY);
