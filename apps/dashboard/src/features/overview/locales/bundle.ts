import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { overviewEnUS } from './en-US.ts';
import { overviewZhCN } from './zh-CN.ts';

/** The overview pages' strings, added with them. */
export const OVERVIEW_LOCALES: LocaleBundle = { 'zh-CN': overviewZhCN, 'en-US': overviewEnUS };
