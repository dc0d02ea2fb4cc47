import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { accountLogsEnUS } from './en-US.ts';
import { accountLogsZhCN } from './zh-CN.ts';

/** The operation and login log strings, added with the pages that show them. */
export const ACCOUNT_LOGS_LOCALES: LocaleBundle = { 'zh-CN': accountLogsZhCN, 'en-US': accountLogsEnUS };
