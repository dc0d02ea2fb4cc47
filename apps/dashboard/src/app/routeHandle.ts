import type { RouteGates } from './access.ts';

/** What each route carries: its title key, and for console pages the records that gate access. */
export interface RouteHandle {
  title: string;
  gates?: RouteGates;
}

export const isRouteHandle = (handle: unknown): handle is RouteHandle =>
  typeof handle === 'object' && handle !== null && 'title' in handle && typeof handle.title === 'string';

/** The handle of the deepest matched route that has one. */
export const deepestHandle = (matches: readonly { handle: unknown }[]): RouteHandle | undefined =>
  matches
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1);

export const TITLE_SUFFIX = ' - Rampart';
