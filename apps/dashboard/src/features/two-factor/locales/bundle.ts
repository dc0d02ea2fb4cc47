import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { twoFactorEnUS } from './en-US.ts';
import { twoFactorZhCN } from './zh-CN.ts';

/** The two-factor sign-in strings, added with the page that shows them. */
export const TWO_FACTOR_LOCALES: LocaleBundle = { 'zh-CN': twoFactorZhCN, 'en-US': twoFactorEnUS };
