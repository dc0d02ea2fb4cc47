import type { LocaleBundle } from '../localeBundle.ts';
import { commonEnUS } from './en-US.ts';
import { commonZhCN } from './zh-CN.ts';

/** The strings every page needs, there from the start. */
export const COMMON_LOCALES: LocaleBundle = { 'zh-CN': commonZhCN, 'en-US': commonEnUS };
