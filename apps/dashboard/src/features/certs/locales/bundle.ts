import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { certsEnUS } from './en-US.ts';
import { certsZhCN } from './zh-CN.ts';

/** The certificate strings, added with the pages that show them. */
export const CERTS_LOCALES: LocaleBundle = { 'zh-CN': certsZhCN, 'en-US': certsEnUS };
