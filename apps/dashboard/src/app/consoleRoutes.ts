import { ROUTES, type RouteRecord } from '@rampart/contracts';
import { type RouteObject, redirect } from 'react-router';
import { requireAuth } from './guard.ts';
import { lazyRoute } from './lazyRoute.tsx';
import { CONSOLE_PAGES, notFoundPage } from './pages.ts';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import { type ConsoleRouteEntry, consoleRouteEntries } from './routeEntries.ts';

const toRoute = (entry: ConsoleRouteEntry): RouteObject => {
  const { path } = entry;
  if ('redirect' in entry) {
    const target = entry.redirect;
    // Loaders run in parallel: the group checks login itself so that login remembers the group's path.
    return { path, loader: (args) => requireAuth(args) ?? redirect(target) };
  }
  const { handle, page } = entry;
  // A page that throws shows the error inside the console, with its chrome around it.
  return {
    path,
    handle,
    lazy: page ? lazyRoute(CONSOLE_PAGES[page]) : notFoundPage,
    ErrorBoundary: RouteErrorBoundary,
  };
};

/** One route per record of ROUTES (groups redirect to their first page), all below the auth guard. */
export const consoleRoutes = (records: readonly RouteRecord[] = ROUTES): RouteObject[] =>
  consoleRouteEntries(records).map(toRoute);
