import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { usersEnUS } from './en-US.ts';
import { usersZhCN } from './zh-CN.ts';

/** The strings of /sys/user (users and user groups) and the impersonation banner. */
export const USERS_LOCALES: LocaleBundle = { 'zh-CN': usersZhCN, 'en-US': usersEnUS };
