import type { Site, SiteGroup } from '@rampart/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { HttpClient } from '../../shared/http/client.ts';
import { notifyWhenWatched } from '../../shared/http/notifyWhenWatched.ts';
import type { PrefetchContext } from '../../shared/http/prefetchContext.ts';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';

export interface ListPage<T> {
  list: T[];
  total: number;
  /** `total` is a lower bound: a broad domain search stops counting there. */
  total_capped?: boolean;
}

export interface SiteListQuery {
  page: number;
  limit: number;
  domain?: string;
  group_id?: number;
  enabled?: boolean;
  https?: boolean;
  sort?: string;
}

export const SITES_KEY = ['sites'] as const;

/** What the site list shows first: the newest 20 sites. */
export const FIRST_SITE_PAGE: SiteListQuery = { page: 1, limit: 20, sort: '-id' };

export const siteListQuery = (http: HttpClient, query: SiteListQuery) =>
  queryOptions({
    queryKey: [...SITES_KEY, 'list', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal, client, queryKey }) =>
      http.get<ListPage<Site>>('/v1/sites', {
        query: { ...query },
        signal,
        onError: notifyWhenWatched(http, client, queryKey),
      }),
  });

export const siteGroupsQuery = (http: HttpClient) =>
  queryOptions({
    queryKey: ['site-groups'],
    queryFn: ({ signal, client, queryKey }) =>
      http.get<ListPage<SiteGroup>>('/v1/site-groups', { signal, onError: notifyWhenWatched(http, client, queryKey) }),
  });

/**
 * The list's first page and the groups, asked for when a navigation to the list starts, so that they
 * arrive while the page's code loads; the time formatter of its rows is made meanwhile. Small on
 * purpose: the console loads this module up front.
 */
export const prefetchSiteList = async ({ http, queryClient, language }: PrefetchContext): Promise<void> => {
  const answers = Promise.all([
    queryClient.prefetchQuery(siteListQuery(http, FIRST_SITE_PAGE)),
    queryClient.prefetchQuery(siteGroupsQuery(http)),
  ]);
  dateTimeFormat(language);
  await answers;
};
