import type { SiteGroup, Stream } from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import type { BatchAction, ListPage } from '../sites/api.ts';
import type { StreamBody } from './streamPayload.ts';

export interface StreamListQuery {
  page: number;
  limit: number;
  port?: number;
  protocol?: 'tcp' | 'udp';
  group_id?: number;
  enabled?: boolean;
}

const STREAMS_KEY = ['streams'] as const;

export const useStreamList = (query: StreamListQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...STREAMS_KEY, 'list', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<ListPage<Stream>>('/v1/streams', { query: { ...query }, signal }),
  });
};

export const useStream = (id: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...STREAMS_KEY, 'one', id],
    queryFn: ({ signal }) => http.get<Stream>(`/v1/streams/${id}`, { signal }),
  });
};

/** Stream groups have the same shape as site groups. */
export const useStreamGroups = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['stream-groups'],
    queryFn: ({ signal }) => http.get<ListPage<SiteGroup>>('/v1/stream-groups', { signal }),
    select: (answer) => answer.list,
  });
};

export const useStreamActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const after =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await call(...args);
      await queryClient.invalidateQueries({ queryKey: STREAMS_KEY });
      return answer;
    };
  return {
    create: after((body: StreamBody, options?: RequestOptions) => http.post<Stream>('/v1/streams', body, options)),
    update: after((id: number, body: Partial<StreamBody>, options?: RequestOptions) =>
      http.put<Stream>(`/v1/streams/${id}`, body, options),
    ),
    batch: after((ids: number[], action: BatchAction, groupId?: number | null) =>
      http.put<unknown>('/v1/streams', { ids, action, ...(groupId !== undefined && { group_id: groupId }) }),
    ),
  };
};
