import { ROUTES, type RouteRecord } from '@rampart/contracts';
import { type RouteObject, redirect } from 'react-router';
import type { RouteGates } from './access.ts';
import { requireAuth } from './guard.ts';
import { lazyRoute } from './lazyRoute.tsx';
import { CONSOLE_PAGES, notFoundPage } from './pages.ts';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';
import type { RouteHandle, TrailStep } from './routeHandle.ts';

interface Parents {
  gates: RouteGates;
  trail: readonly TrailStep[];
}

const toRoute = (record: RouteRecord, { gates, trail }: Parents): RouteObject => {
  const path = record.path.replace(/^\//, '');
  const target = record.redirect;
  // Loaders run in parallel: the group checks login itself so that login remembers the group's path.
  if (target) return { path, loader: (args) => requireAuth(args) ?? redirect(target) };
  const load = CONSOLE_PAGES[record.name];
  const handle: RouteHandle = {
    // A page that is not built yet is the 404 page: it has that title and opens no tab.
    title: load ? record.title : 'route.404',
    name: record.name,
    icon: record.icon,
    gates,
    tabs: load ? record.tabs !== false : false,
    cache: record.cache === true,
    trail,
  };
  // A page that throws shows the error inside the console, with its chrome around it.
  return { path, handle, lazy: load ? lazyRoute(load) : notFoundPage, ErrorBoundary: RouteErrorBoundary };
};

const flatten = (records: readonly RouteRecord[], parents: Parents): RouteObject[] =>
  records.flatMap((record) => {
    const step: TrailStep = { title: record.title, ...(record.icon && { icon: record.icon }) };
    const own = { gates: [...parents.gates, record], trail: [...parents.trail, step] };
    return [toRoute(record, own), ...flatten(record.children ?? [], own)];
  });

/** One route per record of ROUTES (groups redirect to their first page), all below the auth guard. */
export const consoleRoutes = (records: readonly RouteRecord[] = ROUTES): RouteObject[] =>
  flatten(records, { gates: [], trail: [] });
