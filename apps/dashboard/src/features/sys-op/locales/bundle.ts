import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { sysOpEnUS } from './en-US.ts';
import { sysOpZhCN } from './zh-CN.ts';

/** The strings of /sys/op, added with the page. */
export const SYS_OP_LOCALES: LocaleBundle = { 'zh-CN': sysOpZhCN, 'en-US': sysOpEnUS };
