import type { RouteObject } from 'react-router';
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

const PageLoading = () => null;

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
