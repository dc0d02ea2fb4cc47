import type {
  AccessLogPage,
  AccessLogQuery,
  SiteRealtime,
  SiteRealtimeQuery,
  SiteTop,
  TopDimension,
} from '@rampart/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HttpClient } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { type RangeChoice, rangeQuery, refreshMs } from './model/ranges.ts';

export type { AccessLogEntry, AccessLogPage, SiteRealtime, TopEntry } from '@rampart/contracts';

/** One site, one site group, or every site of the user. */
export type SiteScope = Pick<SiteRealtimeQuery, 'site_id' | 'group_id'>;

const REALTIME_PATH = '/v1/monitor/site/realtime';
const TOP_PATH = '/v1/monitor/site/top';
export const ACCESS_LOG_PATH = '/v1/monitor/site/access-log';

/** The chart data of a scope and range; a preset's range moves to "now" at each refresh. */
export const siteRealtimeQuery = (http: HttpClient, scope: SiteScope, range: RangeChoice) =>
  queryOptions({
    queryKey: ['monitor', 'realtime', scope, range],
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs(range),
    queryFn: ({ signal }) =>
      http.get<SiteRealtime>(REALTIME_PATH, { query: { ...scope, ...rangeQuery(range, Date.now()) }, signal }),
  });

/** What /site/realtime opens on: every site of the user over the last hour. */
export const FIRST_REALTIME: { scope: SiteScope; range: RangeChoice } = { scope: {}, range: { preset: '1h' } };

export const useSiteRealtime = (scope: SiteScope, range: RangeChoice) =>
  useQuery(siteRealtimeQuery(useHttp(), scope, range));

export const useSiteTop = (scope: SiteScope, range: RangeChoice, by: TopDimension, enabled: boolean, limit = 10) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'top', scope, range, by, limit],
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: refreshMs(range),
    queryFn: ({ signal }) =>
      http.get<SiteTop>(TOP_PATH, { query: { ...scope, ...rangeQuery(range, Date.now()), by, limit }, signal }),
  });
};

/** The access log's filter as sent: every field but the cursor and paging. */
export type AccessLogFilter = Omit<AccessLogQuery, 'cursor' | 'limit' | 'format'>;

export const useAccessLog = (filter: AccessLogFilter, cursor: string | undefined, limit: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'access-log', filter, cursor, limit],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<AccessLogPage>(ACCESS_LOG_PATH, { query: { ...filter, cursor, limit }, signal }),
  });
};

/** Saves the filter's lines as access-log.csv (the master streams them, at most 100000). */
export const useAccessLogExport = () => {
  const http = useHttp();
  return async (filter: AccessLogFilter) => {
    const csv = await http.download(ACCESS_LOG_PATH, { query: { ...filter, format: 'csv' } });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(csv);
    link.download = 'access-log.csv';
    link.click();
    // The click has handed the blob to the browser's download by the next task.
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
  };
};
