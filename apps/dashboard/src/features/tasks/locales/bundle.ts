import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { tasksEnUS } from './en-US.ts';
import { tasksZhCN } from './zh-CN.ts';

/** The strings of /sys/task, added with the page. */
export const TASKS_LOCALES: LocaleBundle = { 'zh-CN': tasksZhCN, 'en-US': tasksEnUS };
