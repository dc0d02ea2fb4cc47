import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { cacheCleanEnUS } from './en-US.ts';
import { cacheCleanZhCN } from './zh-CN.ts';

/** The refresh and pre-warm page's strings, added with it. */
export const CACHE_CLEAN_LOCALES: LocaleBundle = { 'zh-CN': cacheCleanZhCN, 'en-US': cacheCleanEnUS };
