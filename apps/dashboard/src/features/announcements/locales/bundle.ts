import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { announcementsEnUS } from './en-US.ts';
import { announcementsZhCN } from './zh-CN.ts';

/** The announcement strings: the admin's page and the login page's notice. */
export const ANNOUNCEMENTS_LOCALES: LocaleBundle = { 'zh-CN': announcementsZhCN, 'en-US': announcementsEnUS };
