import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { usageEnUS } from './en-US.ts';
import { usageZhCN } from './zh-CN.ts';

/** The usage pages' strings. */
export const USAGE_LOCALES: LocaleBundle = { 'zh-CN': usageZhCN, 'en-US': usageEnUS };
