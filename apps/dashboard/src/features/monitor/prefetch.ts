import type { PrefetchContext } from '../../shared/http/prefetchContext.ts';
import { FIRST_REALTIME, siteRealtimeQuery } from './api.ts';

/**
 * /site/realtime's first chart data, asked for as soon as a navigation to the page starts, so that
 * it loads beside the page's code (ECharts is most of it) instead of after it.
 */
export const prefetchSiteRealtime = async ({ http, queryClient }: PrefetchContext): Promise<void> => {
  await queryClient.prefetchQuery(siteRealtimeQuery(http, FIRST_REALTIME.scope, FIRST_REALTIME.range));
};
