import { ROUTES, type RouteRecord } from '@rampart/contracts';
import type { RouteGates } from './access.ts';
import { type BuiltPage, isBuiltPage } from './builtPages.ts';
import type { RouteHandle, TrailStep } from './routeHandle.ts';

/** One console route as data: a group that redirects, or a page with its handle (built or not). */
export type ConsoleRouteEntry =
  | { path: string; redirect: string }
  | { path: string; handle: RouteHandle; page: BuiltPage | undefined };

interface Parents {
  gates: RouteGates;
  trail: readonly TrailStep[];
}

const toEntry = (record: RouteRecord, { gates, trail }: Parents): ConsoleRouteEntry => {
  const path = record.path.replace(/^\//, '');
  if (record.redirect) return { path, redirect: record.redirect };
  const page = isBuiltPage(record.name) ? record.name : undefined;
  const handle: RouteHandle = {
    // A page that is not built yet is the 404 page: it has that title and opens no tab.
    title: page ? record.title : 'route.404',
    name: record.name,
    icon: record.icon,
    gates,
    tabs: page ? record.tabs !== false : false,
    cache: record.cache === true,
    trail,
  };
  return { path, handle, page };
};

const flatten = (records: readonly RouteRecord[], parents: Parents): ConsoleRouteEntry[] =>
  records.flatMap((record) => {
    const step: TrailStep = { title: record.title, ...(record.icon && { icon: record.icon }) };
    const own = { gates: [...parents.gates, record], trail: [...parents.trail, step] };
    return [toEntry(record, own), ...flatten(record.children ?? [], own)];
  });

/** One entry per record of ROUTES, flat, with the gates and breadcrumb of the groups above it. */
export const consoleRouteEntries = (records: readonly RouteRecord[] = ROUTES): ConsoleRouteEntry[] =>
  flatten(records, { gates: [], trail: [] });
