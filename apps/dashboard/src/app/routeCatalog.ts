import { matchRoutes } from 'react-router';
import { consoleRouteEntries } from './routeEntries.ts';
import { deepestHandle, type RouteHandle } from './routeHandle.ts';

// The console routes as data only: the chrome reads them without importing the pages' loaders.
const CONSOLE_ROUTES = consoleRouteEntries().map((entry) => ({
  path: entry.path,
  handle: 'handle' in entry ? entry.handle : undefined,
}));

/** The handle of the console page at a pathname, or undefined when no route record matches. */
export const handleForPath = (pathname: string): RouteHandle | undefined =>
  deepestHandle((matchRoutes(CONSOLE_ROUTES, pathname) ?? []).map((match) => ({ handle: match.route.handle })));
