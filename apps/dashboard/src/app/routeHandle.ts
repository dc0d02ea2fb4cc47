import type { RouteGates } from './access.ts';
import { APP_CONFIG } from './config.ts';

/** One step of the breadcrumb: a route record's title and icon. */
export interface TrailStep {
  title: string;
  icon?: string;
}

/** What each route carries, from its route record (STYLE: routes and menus are data). */
export interface RouteHandle {
  /** i18n key of the page title. */
  title: string;
  /** The route record's name (console pages). */
  name?: string;
  icon?: string;
  /** The records that gate access: the page's and its group's. */
  gates?: RouteGates;
  /** false: visiting the page opens no tab. */
  tabs?: boolean;
  /** The page stays alive while its tab is open. */
  cache?: boolean;
  /** The group and the page, for the breadcrumb. */
  trail?: readonly TrailStep[];
}

export const isRouteHandle = (handle: unknown): handle is RouteHandle =>
  typeof handle === 'object' && handle !== null && 'title' in handle && typeof handle.title === 'string';

/** The handle of the deepest matched route that has one. */
export const deepestHandle = (matches: readonly { handle: unknown }[]): RouteHandle | undefined =>
  matches
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1);

export const TITLE_SUFFIX = APP_CONFIG.titleSuffix;
