import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { packagesEnUS } from './en-US.ts';
import { packagesZhCN } from './zh-CN.ts';

/** The strings of /package/basic, /package/upgrade, /package/marketing and /package/sold. */
export const PACKAGES_LOCALES: LocaleBundle = { 'zh-CN': packagesZhCN, 'en-US': packagesEnUS };
