import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { nodeMonitorEnUS } from './en-US.ts';
import { nodeMonitorZhCN } from './zh-CN.ts';

/** The strings of /node/monitor-setting (settings, IP states, IP-switch log). */
export const NODE_MONITOR_LOCALES: LocaleBundle = { 'zh-CN': nodeMonitorZhCN, 'en-US': nodeMonitorEnUS };
