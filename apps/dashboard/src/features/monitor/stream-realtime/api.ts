import type {
  StreamLogPage,
  StreamLogQuery,
  StreamRealtime,
  StreamRealtimeQuery,
  StreamTop,
  StreamTopDimension,
} from '@rampart/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { type RangeChoice, rangeQuery, refreshMs } from '../model/ranges.ts';

export type { StreamLogEntry, StreamTopEntry } from '@rampart/contracts';

/** One stream, one stream group, or every stream of the user. */
export type StreamScope = Pick<StreamRealtimeQuery, 'stream_id' | 'group_id'>;

/** The chart data of a scope and range; a preset's range moves to "now" at each refresh. */
export const useStreamRealtime = (scope: StreamScope, range: RangeChoice) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'stream-realtime', scope, range],
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs(range),
    queryFn: ({ signal }) =>
      http.get<StreamRealtime>('/v1/monitor/stream/realtime', {
        query: { ...scope, ...rangeQuery(range, Date.now()) },
        signal,
      }),
  });
};

export const useStreamTop = (scope: StreamScope, range: RangeChoice, by: StreamTopDimension, enabled: boolean) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'stream-top', scope, range, by],
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: refreshMs(range),
    queryFn: ({ signal }) =>
      http.get<StreamTop>('/v1/monitor/stream/top', {
        query: { ...scope, ...rangeQuery(range, Date.now()), by, limit: 10 },
        signal,
      }),
  });
};

const STREAM_LOG_PATH = '/v1/monitor/stream/access-log';

/** The stream log's filter as sent: every field but the cursor and paging. */
export type StreamLogFilter = Omit<StreamLogQuery, 'cursor' | 'limit' | 'format'>;

export const useStreamLog = (filter: StreamLogFilter, cursor: string | undefined, limit: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'stream-log', filter, cursor, limit],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<StreamLogPage>(STREAM_LOG_PATH, { query: { ...filter, cursor, limit }, signal }),
  });
};

/** Saves the filter's lines as stream-log.csv (the master streams them, at most 100000). */
export const useStreamLogExport = () => {
  const http = useHttp();
  return async (filter: StreamLogFilter) => {
    const csv = await http.download(STREAM_LOG_PATH, { query: { ...filter, format: 'csv' } });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(csv);
    link.download = 'stream-log.csv';
    link.click();
    // The click has handed the blob to the browser's download by the next task.
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
  };
};
