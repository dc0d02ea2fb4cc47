import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { dnsEnUS } from './en-US.ts';
import { dnsZhCN } from './zh-CN.ts';

/** The DNS strings, added with the pages that show them. */
export const DNS_LOCALES: LocaleBundle = { 'zh-CN': dnsZhCN, 'en-US': dnsEnUS };
