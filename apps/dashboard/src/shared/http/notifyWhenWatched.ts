import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ApiError } from './apiError.ts';
import type { HttpClient } from './client.ts';

/**
 * The `onError` of a query that may be prefetched: a failure pops up only while a page watches the
 * query. A prefetch nobody watches yet fails quietly (the front-end log still has it); the page that
 * mounts later fetches again and shows its own failure, so the user never sees one failure twice.
 */
export const notifyWhenWatched =
  (http: Pick<HttpClient, 'notify'>, client: QueryClient, queryKey: QueryKey) =>
  (error: ApiError): void => {
    const watchers = client.getQueryCache().find({ queryKey, exact: true })?.getObserversCount() ?? 0;
    if (watchers > 0) http.notify(error);
  };
