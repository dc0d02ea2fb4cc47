import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { settingsEnUS } from './en-US.ts';
import { settingsZhCN } from './zh-CN.ts';

/** The strings of /sys/setting, added with the page. */
export const SETTINGS_LOCALES: LocaleBundle = { 'zh-CN': settingsZhCN, 'en-US': settingsEnUS };
