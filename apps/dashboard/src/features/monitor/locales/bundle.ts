import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { monitorEnUS } from './en-US.ts';
import { monitorZhCN } from './zh-CN.ts';

/** The site traffic strings, added with the realtime and access log pages. */
export const MONITOR_LOCALES: LocaleBundle = { 'zh-CN': monitorZhCN, 'en-US': monitorEnUS };
