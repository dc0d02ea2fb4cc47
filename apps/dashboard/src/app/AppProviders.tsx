import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import AntdApp from 'antd/es/app';
import ConfigProvider from 'antd/es/config-provider';
import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { HttpProvider } from '../shared/http/HttpProvider.tsx';
import { ANTD_LOCALES } from '../shared/i18n/antdLocale.ts';
import { DEFAULT_LANGUAGE, isLanguage } from '../shared/i18n/languages.ts';

interface AppProvidersProps {
  i18n: I18n;
  queryClient: QueryClient;
  onLoginRequired: () => void;
  children: ReactNode;
}

/** antd's locale follows the i18next language. */
const LocalizedAntd = ({ children }: { children: ReactNode }) => {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  return (
    <ConfigProvider locale={ANTD_LOCALES[language]}>
      <AntdApp>{children}</AntdApp>
    </ConfigProvider>
  );
};

export const AppProviders = ({ i18n, queryClient, onLoginRequired, children }: AppProvidersProps) => (
  <I18nextProvider i18n={i18n}>
    <LocalizedAntd>
      <QueryClientProvider client={queryClient}>
        <HttpProvider onLoginRequired={onLoginRequired}>{children}</HttpProvider>
      </QueryClientProvider>
    </LocalizedAntd>
  </I18nextProvider>
);
