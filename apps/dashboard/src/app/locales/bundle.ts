import type { LocaleBundle } from '../../shared/i18n/localeBundle.ts';
import { routeEnUS } from './en-US.ts';
import { routeZhCN } from './zh-CN.ts';

/** The console pages' titles, added with the console. */
export const ROUTE_LOCALES: LocaleBundle = { 'zh-CN': routeZhCN, 'en-US': routeEnUS };
