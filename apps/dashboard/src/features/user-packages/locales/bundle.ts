import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { userPackagesEnUS } from './en-US.ts';
import { userPackagesZhCN } from './zh-CN.ts';

/** The strings of /user-package/buy and /user-package/my. */
export const USER_PACKAGES_LOCALES: LocaleBundle = { 'zh-CN': userPackagesZhCN, 'en-US': userPackagesEnUS };
