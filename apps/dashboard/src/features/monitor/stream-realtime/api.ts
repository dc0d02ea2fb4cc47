import type { StreamRealtime, StreamRealtimeQuery, StreamTop, StreamTopDimension } from '@rampart/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { type RangeChoice, rangeQuery, refreshMs } from '../model/ranges.ts';

export type { StreamTopEntry } from '@rampart/contracts';

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
