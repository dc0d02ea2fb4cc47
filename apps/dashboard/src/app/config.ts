/**
 * The dashboard's configuration: what an operator would change when building their own console.
 * Layout defaults are in `layout/settings/defaults.ts`; languages in `shared/i18n/languages.ts`.
 */
export const APP_CONFIG = {
  /** Keys the settings stored in cookies and local storage, so two consoles on one host do not mix. */
  appId: 'rampart',
  /** The page title is the route title plus this suffix (spec §2). */
  titleSuffix: ' - Rampart',
  /** Menus from GET /v1/common/menu2; off: the same menus built here from the route records. */
  dynamicMenu: true,
  /** A thin bar at the top of the page while a route loads. */
  showProgressBar: true,
  /** Going to the same route with other params or query re-creates the page only when this is on. */
  sameRouteForceUpdate: false,
  /** Merge translations from POST /api/system/i18n/list over the built-in ones when it answers. */
  remoteTranslations: true,
} as const;
