import { ROUTES, type RouteRecord } from '@rampart/contracts';
import { type RouteObject, redirect } from 'react-router';
import type { RouteGates } from './access.ts';
import { withChunkTimeout } from './chunkTimeout.ts';
import { requireAuth } from './guard.ts';
import { notFoundPage, type PageModule } from './pages.ts';
import type { RouteHandle } from './routeHandle.ts';

/** Pages built so far, by route name; every other record of ROUTES renders the 404 page. */
const CONSOLE_PAGES: Partial<Record<string, () => Promise<PageModule>>> = {
  home: () => import('../features/overview/HomePage.tsx'),
  'admin-home': () => import('../features/overview/AdminHomePage.tsx'),
};

const toRoute = (record: RouteRecord, gates: RouteGates): RouteObject => {
  const path = record.path.replace(/^\//, '');
  const target = record.redirect;
  // Loaders run in parallel: the group checks login itself so that login remembers the group's path.
  if (target) return { path, loader: (args) => requireAuth(args) ?? redirect(target) };
  const load = CONSOLE_PAGES[record.name];
  const handle: RouteHandle = load ? { title: record.title, gates } : { title: 'route.404', gates };
  return { path, handle, lazy: load ? withChunkTimeout(load) : notFoundPage };
};

const flatten = (records: readonly RouteRecord[], parents: RouteGates): RouteObject[] =>
  records.flatMap((record) => {
    const gates = [...parents, record];
    return [toRoute(record, gates), ...flatten(record.children ?? [], gates)];
  });

/** One route per record of ROUTES (groups redirect to their first page), all below the auth guard. */
export const consoleRoutes = (records: readonly RouteRecord[] = ROUTES): RouteObject[] => flatten(records, []);
