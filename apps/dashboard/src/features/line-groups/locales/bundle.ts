import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { lineGroupsEnUS } from './en-US.ts';
import { lineGroupsZhCN } from './zh-CN.ts';

/** The strings of /node/line-group, /node/line-group/line/{id} and /node/dns. */
export const LINE_GROUPS_LOCALES: LocaleBundle = { 'zh-CN': lineGroupsZhCN, 'en-US': lineGroupsEnUS };
