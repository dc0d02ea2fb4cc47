import type { LocaleBundle } from '../../../../shared/i18n/localeBundle.ts';
import { monitorNodeEnUS } from './en-US.ts';
import { monitorNodeZhCN } from './zh-CN.ts';

/** The node monitoring strings, added with the /node/realtime page. */
export const MONITOR_NODE_LOCALES: LocaleBundle = { 'zh-CN': monitorNodeZhCN, 'en-US': monitorNodeEnUS };
