import type { LocaleBundle } from '../../../../shared/i18n/localeBundle.ts';
import { paymentSettingsEnUS } from './en-US.ts';
import { paymentSettingsZhCN } from './zh-CN.ts';

/** The strings of the Payment tab of /sys/setting. */
export const PAYMENT_LOCALES: LocaleBundle = { 'zh-CN': paymentSettingsZhCN, 'en-US': paymentSettingsEnUS };
