import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { protectionEnUS } from './en-US.ts';
import { protectionZhCN } from './zh-CN.ts';

/** The protection strings, added with the pages and sections that show them. */
export const PROTECTION_LOCALES: LocaleBundle = { 'zh-CN': protectionZhCN, 'en-US': protectionEnUS };
