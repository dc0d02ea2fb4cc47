import type { LocaleBundle } from '../../../../shared/i18n/localeBundle.ts';
import { monitorStreamEnUS } from './en-US.ts';
import { monitorStreamZhCN } from './zh-CN.ts';

/** The stream traffic strings, added with the /stream/realtime page. */
export const MONITOR_STREAM_LOCALES: LocaleBundle = { 'zh-CN': monitorStreamZhCN, 'en-US': monitorStreamEnUS };
