import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { geoipEnUS } from './en-US.ts';
import { geoipZhCN } from './zh-CN.ts';

/** The strings of the GeoIP database section, added with it. */
export const GEOIP_LOCALES: LocaleBundle = { 'zh-CN': geoipZhCN, 'en-US': geoipEnUS };
