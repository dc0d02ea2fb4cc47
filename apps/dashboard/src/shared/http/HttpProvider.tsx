import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../feedback/FeedbackProvider.tsx';
import { useFrontLog } from '../log/frontLog.ts';
import { useSession } from '../session/session.ts';
import { createHttpClient, type HttpClient } from './client.ts';
import { errorPopupText } from './errorText.ts';

const HttpContext = createContext<HttpClient | null>(null);

interface HttpProviderProps {
  onLoginRequired: () => void;
  children: ReactNode;
}

/** Binds the one HTTP client to this app's session, translations, popups and front-end log. */
export const HttpProvider = ({ onLoginRequired, children }: HttpProviderProps) => {
  const feedback = useFeedback();
  const { i18n } = useTranslation();
  const client = useMemo(
    () =>
      createHttpClient({
        getToken: () => useSession.getState().token,
        onLoginRequired,
        notify: feedback.error,
        describe: (error) => errorPopupText(error, i18n),
        translate: (key, values) => i18n.t(key, values ?? {}),
        onFailure: (error, method) =>
          useFrontLog.getState().add({
            kind: 'request',
            method,
            url: error.url,
            code: error.code,
            message: error.display,
          }),
      }),
    [feedback, i18n, onLoginRequired],
  );
  return <HttpContext value={client}>{children}</HttpContext>;
};

export const useHttp = (): HttpClient => {
  const client = useContext(HttpContext);
  if (!client) throw new Error('useHttp needs an HttpProvider above it');
  return client;
};
