import { ROUTER_BASENAME } from './basePath.ts';

export const LOGIN_PATH = '/login';
export const REDIRECT_PARAM = 'redirect';

/** A browser pathname without the `/dashboard` prefix. */
export const stripBasename = (pathname: string): string => {
  if (pathname === ROUTER_BASENAME) return '/';
  return pathname.startsWith(`${ROUTER_BASENAME}/`) ? pathname.slice(ROUTER_BASENAME.length) : pathname;
};

/** The login page, remembering where the user was going (spec §2: the full path). */
export const loginHref = (fullPath: string): string =>
  fullPath === '/' || fullPath.startsWith(LOGIN_PATH)
    ? LOGIN_PATH
    : `${LOGIN_PATH}?${REDIRECT_PARAM}=${encodeURIComponent(fullPath)}`;

/** The `redirect` query value when it is a path inside the app, never another origin. */
export const safeRedirect = (value: string | null): string | null => {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
};
