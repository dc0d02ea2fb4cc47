import ConfigProvider from 'antd/es/config-provider';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ANTD_LOCALES } from '../i18n/antdLocale.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../i18n/languages.ts';

/** Whether the user asked the system for less motion: antd's opening and closing animations are then off. */
const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/**
 * antd's configuration for the parts of the app that use antd (the console, registration, password
 * reset, error pages); its locale follows the i18next language, and its motion the system's
 * reduced-motion preference. The login page does without antd.
 */
export const AntdScope = ({ children }: { children: ReactNode }) => {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return (
    <ConfigProvider locale={ANTD_LOCALES[language]} theme={reducedMotion() ? { token: { motion: false } } : undefined}>
      {children}
    </ConfigProvider>
  );
};
