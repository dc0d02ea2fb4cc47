import { matchRoutes } from 'react-router';
import { consoleRoutes } from './consoleRoutes.ts';
import { deepestHandle, type RouteHandle } from './routeHandle.ts';

const CONSOLE_ROUTES = consoleRoutes();

/** The handle of the console page at a pathname, or undefined when no route record matches. */
export const handleForPath = (pathname: string): RouteHandle | undefined =>
  deepestHandle((matchRoutes(CONSOLE_ROUTES, pathname) ?? []).map((match) => ({ handle: match.route.handle })));
