import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { certifyEnUS } from './en-US.ts';
import { certifyZhCN } from './zh-CN.ts';

/** The certification strings, added with the page or the admin component that shows them. */
export const CERTIFY_LOCALES: LocaleBundle = { 'zh-CN': certifyZhCN, 'en-US': certifyEnUS };
