import type { LocaleBundle } from '../../i18n/localeBundle.ts';
import { chartEnUS } from './en-US.ts';
import { chartZhCN } from './zh-CN.ts';

/** The strings every chart shows, added with the first chart. */
export const CHART_LOCALES: LocaleBundle = { 'zh-CN': chartZhCN, 'en-US': chartEnUS };
