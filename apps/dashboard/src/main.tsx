import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders.tsx';
import { ROUTER_BASENAME } from './app/basePath.ts';
import { loginHref, stripBasename } from './app/navigation.ts';
import { createQueryClient } from './app/queryClient.ts';
import { appRoutes } from './app/routes.tsx';
import { TRANSLATIONS } from './app/translations.ts';
import { createI18n } from './shared/i18n/i18n.ts';
import { detectLanguage, LANGUAGE_STORAGE_KEY } from './shared/i18n/languages.ts';
import { useSession } from './shared/session/session.ts';

const language = detectLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY), navigator.languages);
document.documentElement.lang = language;
const i18n = createI18n(TRANSLATIONS, language);
const queryClient = createQueryClient();
const router = createBrowserRouter(appRoutes, { basename: ROUTER_BASENAME });

/** A `login_required` answer ends the session and sends the user to login, back here afterwards. */
const onLoginRequired = () => {
  useSession.getState().clear();
  queryClient.clear();
  const { pathname, search } = router.state.location;
  const path = stripBasename(pathname);
  if (!path.startsWith('/login')) void router.navigate(loginHref(`${path}${search}`), { replace: true });
};

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppProviders i18n={i18n} queryClient={queryClient} onLoginRequired={onLoginRequired}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
