import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import type { Language } from './languages.ts';

export const ANTD_LOCALES: Record<Language, Locale> = { 'zh-CN': zhCN, 'en-US': enUS };
