import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { streamsEnUS } from './en-US.ts';
import { streamsZhCN } from './zh-CN.ts';

/** The forwarding strings, added with the pages that show them. */
export const STREAMS_LOCALES: LocaleBundle = { 'zh-CN': streamsZhCN, 'en-US': streamsEnUS };
