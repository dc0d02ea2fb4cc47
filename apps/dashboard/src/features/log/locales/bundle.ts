import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { logEnUS } from './en-US.ts';
import { logZhCN } from './zh-CN.ts';

/** The front-end log page's strings, added with it. */
export const LOG_LOCALES: LocaleBundle = { 'zh-CN': logZhCN, 'en-US': logEnUS };
