import type { i18n as I18n } from 'i18next';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { FeedbackProvider } from '../shared/feedback/FeedbackProvider.tsx';
import { HttpProvider } from '../shared/http/HttpProvider.tsx';

interface AppProvidersProps {
  i18n: I18n;
  onLoginRequired: () => void;
  children: ReactNode;
}

/**
 * What every page needs. No antd and no TanStack Query here: the sign-in pages do without them,
 * each antd page tree brings its own AntdScope, and the console its query client.
 */
export const AppProviders = ({ i18n, onLoginRequired, children }: AppProvidersProps) => (
  <I18nextProvider i18n={i18n}>
    <FeedbackProvider>
      <HttpProvider onLoginRequired={onLoginRequired}>{children}</HttpProvider>
    </FeedbackProvider>
  </I18nextProvider>
);
