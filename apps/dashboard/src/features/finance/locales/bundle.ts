import type { LocaleBundle } from '../../../shared/i18n/localeBundle.ts';
import { financeEnUS } from './en-US.ts';
import { financeZhCN } from './zh-CN.ts';

/** The strings of /account/balance, /account/order and the /finance pages. */
export const FINANCE_LOCALES: LocaleBundle = { 'zh-CN': financeZhCN, 'en-US': financeEnUS };
