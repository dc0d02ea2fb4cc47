import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { messagesEnUS } from './en-US.ts';
import { messagesZhCN } from './zh-CN.ts';

/** The message, subscription and message query strings, added with the pages that show them. */
export const MESSAGES_LOCALES: LocaleBundle = { 'zh-CN': messagesZhCN, 'en-US': messagesEnUS };
