import type { QueryClient } from '@tanstack/react-query';
import { prefetchSiteList } from '../features/sites/siteQueries.ts';
import type { HttpClient } from '../shared/http/client.ts';

/** What a prefetch works with: the console's HTTP client and query cache, and the user's language. */
export interface PrefetchContext {
  http: HttpClient;
  queryClient: QueryClient;
  language: string;
}

type Prefetch = (context: PrefetchContext) => Promise<void>;

/**
 * What a console page shows first, by route name: its data asked for as soon as a navigation to the
 * page starts, so that it loads beside the page's code instead of after it.
 */
export const CONSOLE_PREFETCH: Partial<Record<string, Prefetch>> = {
  'site-list': prefetchSiteList,
};
