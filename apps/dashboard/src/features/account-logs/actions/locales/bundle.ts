import type { LocaleBundle } from '../../../../shared/i18n/localeBundle.ts';
import { opLogActionsEnUS } from './en-US.ts';
import { opLogActionsZhCN } from './zh-CN.ts';

/** The operation log's actions in words, added with the tables that show them. */
export const OP_LOG_ACTION_LOCALES: LocaleBundle = { 'zh-CN': opLogActionsZhCN, 'en-US': opLogActionsEnUS };
