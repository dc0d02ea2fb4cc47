import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { apiKeyEnUS } from './en-US.ts';
import { apiKeyZhCN } from './zh-CN.ts';

/** The API key strings, added with the page that shows them. */
export const API_KEY_LOCALES: LocaleBundle = { 'zh-CN': apiKeyZhCN, 'en-US': apiKeyEnUS };
