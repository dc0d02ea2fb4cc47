import App from 'antd/es/app';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useRequestLog } from '../log/requestLog.ts';
import { useSession } from '../session/session.ts';
import { createHttpClient, type HttpClient } from './client.ts';

/** Spec §9: error messages stay 3 s. */
export const MESSAGE_SECONDS = 3;

const HttpContext = createContext<HttpClient | null>(null);

interface HttpProviderProps {
  onLoginRequired: () => void;
  children: ReactNode;
}

/** Binds the one HTTP client to this app's session, translations and antd message API. */
export const HttpProvider = ({ onLoginRequired, children }: HttpProviderProps) => {
  const { message } = App.useApp();
  const { i18n } = useTranslation();
  const client = useMemo(
    () =>
      createHttpClient({
        getToken: () => useSession.getState().token,
        onLoginRequired,
        notify: (text) => {
          void message.error({ content: text, duration: MESSAGE_SECONDS });
        },
        translate: (key, values) => i18n.t(key, values ?? {}),
        onFailure: (error, method) =>
          useRequestLog.getState().add({
            at: new Date().toISOString(),
            method,
            url: error.url,
            code: error.code,
            message: error.message,
          }),
      }),
    [message, i18n, onLoginRequired],
  );
  return <HttpContext value={client}>{children}</HttpContext>;
};

export const useHttp = (): HttpClient => {
  const client = useContext(HttpContext);
  if (!client) throw new Error('useHttp needs an HttpProvider above it');
  return client;
};
