import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { errorsEnUS } from './en-US.ts';
import { errorsZhCN } from './zh-CN.ts';

/** Why the 403 page refuses a page, added with the page. */
export const ERRORS_LOCALES: LocaleBundle = { 'zh-CN': errorsZhCN, 'en-US': errorsEnUS };
