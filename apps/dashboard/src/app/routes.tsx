import { type RouteObject, useMatches } from 'react-router';
import { ShellSkeleton } from '../layout/shell/ShellSkeleton.tsx';
import { useSession } from '../shared/session/session.ts';
import { consoleRoutes } from './consoleRoutes.ts';
import { requireAuth } from './guard.ts';
import { helperRoutes } from './helperRoutes.tsx';
import {
  consoleLayout,
  forbiddenPage,
  forgetPasswordPage,
  loginPage,
  notFoundPage,
  registerPage,
  serverErrorPage,
} from './pages.ts';
import { RootLayout } from './RootLayout.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';

/**
 * Until the first page's code has arrived: the console's skeleton on a console page with a token
 * (the console will show, or the session check will send to login), nothing elsewhere.
 */
const PageLoading = () => {
  const inConsole = useMatches().some((match) => match.id === 'console');
  const token = useSession((state) => state.token);
  return inConsole && token ? <ShellSkeleton /> : null;
};

/** Public pages, then everything of ROUTES behind the auth guard, then the catch-all 404. */
export const appRoutes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: PageLoading,
    children: [
      { path: 'login', lazy: loginPage, handle: { title: 'route.login' } },
      { path: 'register', lazy: registerPage, handle: { title: 'route.register' } },
      { path: 'forget-password', lazy: forgetPasswordPage, handle: { title: 'route.forget-password' } },
      { path: '403', lazy: forbiddenPage, handle: { title: 'route.403' } },
      { path: '500', lazy: serverErrorPage, handle: { title: 'route.500' } },
      {
        id: 'console',
        loader: requireAuth,
        lazy: consoleLayout,
        children: [...helperRoutes, ...consoleRoutes()],
      },
      { path: '*', lazy: notFoundPage, handle: { title: 'route.404' } },
    ],
  },
];
