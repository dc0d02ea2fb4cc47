import type { LocaleBundle } from '../../shared/i18n/localeBundle.ts';
import { layoutEnUS } from './en-US.ts';
import { layoutZhCN } from './zh-CN.ts';

/** The console chrome's strings, added with the console. */
export const LAYOUT_LOCALES: LocaleBundle = { 'zh-CN': layoutZhCN, 'en-US': layoutEnUS };
