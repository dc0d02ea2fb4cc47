import type { TFunction } from 'i18next';

/** The locale key of a permission code: `admin:node` → `users.access.node` (a ':' in a key reads as a namespace). */
export const permissionKey = (code: string): string =>
  `users.access.${code.replace(/^admin:/, '').replaceAll(':', '_')}`;

/** A permission code in words, such as "Fleet (nodes)" for `admin:node`; the code itself when unknown. */
export const permissionLabel = (t: TFunction, code: string): string => t(permissionKey(code), { defaultValue: code });
