import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { authEnUS } from './en-US.ts';
import { authZhCN } from './zh-CN.ts';

/** The sign-in pages' strings, added with each of them. */
export const AUTH_LOCALES: LocaleBundle = { 'zh-CN': authZhCN, 'en-US': authEnUS };
