import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders.tsx';
import { ROUTER_BASENAME } from './app/basePath.ts';
import { createLoginRequiredHandler } from './app/loginRequired.ts';
import { appRoutes } from './app/routes.tsx';
import { createI18n } from './shared/i18n/i18n.ts';
import { detectLanguage, LANGUAGE_STORAGE_KEY } from './shared/i18n/languages.ts';
import { COMMON_LOCALES } from './shared/i18n/locales/bundle.ts';
import { installErrorLog } from './shared/log/frontLog.ts';

installErrorLog();
const language = detectLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY), navigator.languages);
document.documentElement.lang = language;
// Features add their strings when their code loads (useLocales).
const i18n = createI18n(COMMON_LOCALES, language);
const router = createBrowserRouter(appRoutes, { basename: ROUTER_BASENAME });

const onLoginRequired = createLoginRequiredHandler(router);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppProviders i18n={i18n} onLoginRequired={onLoginRequired}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
