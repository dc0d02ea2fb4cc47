import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { sitesEnUS } from './en-US.ts';
import { sitesZhCN } from './zh-CN.ts';

/** The site strings, added with the pages that show them. */
export const SITES_LOCALES: LocaleBundle = { 'zh-CN': sitesZhCN, 'en-US': sitesEnUS };
