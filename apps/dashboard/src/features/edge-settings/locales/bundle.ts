import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { edgeSettingsEnUS } from './en-US.ts';
import { edgeSettingsZhCN } from './zh-CN.ts';

/** The strings of /config/nginx, /config/res, /config/default and /config/error. */
export const EDGE_SETTINGS_LOCALES: LocaleBundle = { 'zh-CN': edgeSettingsZhCN, 'en-US': edgeSettingsEnUS };
