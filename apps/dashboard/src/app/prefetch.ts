import { prefetchSiteRealtime } from '../features/monitor/prefetch.ts';
import { prefetchSiteList } from '../features/sites/siteQueries.ts';
import type { Prefetch } from '../shared/http/prefetchContext.ts';

/**
 * What a console page shows first, by route name: its data asked for as soon as a navigation to the
 * page starts, so that it loads beside the page's code instead of after it.
 */
export const CONSOLE_PREFETCH: Partial<Record<string, Prefetch>> = {
  'site-list': prefetchSiteList,
  'site-realtime': prefetchSiteRealtime,
};
