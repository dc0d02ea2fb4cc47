import ConfigProvider from 'antd/es/config-provider';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ANTD_LOCALES } from '../i18n/antdLocale.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../i18n/languages.ts';

/**
 * antd's configuration for the parts of the app that use antd (the console, registration, password
 * reset, error pages); its locale follows the i18next language. The login page does without antd.
 */
export const AntdScope = ({ children }: { children: ReactNode }) => {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return <ConfigProvider locale={ANTD_LOCALES[language]}>{children}</ConfigProvider>;
};
