import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { accountUserEnUS } from './en-US.ts';
import { accountUserZhCN } from './zh-CN.ts';

/** The /account/user strings, added with the page that shows them. */
export const ACCOUNT_USER_LOCALES: LocaleBundle = { 'zh-CN': accountUserZhCN, 'en-US': accountUserEnUS };
