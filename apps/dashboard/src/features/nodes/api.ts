import type { AddNodeBody, NodePlace, NodeView, PendingNode, UpdateNodeBody } from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { NodePlace, NodeView, PendingNode };

export interface ListPage<T> {
  list: T[];
  total: number;
}

export interface NodeQuery {
  page: number;
  limit: number;
}

const NODES_KEY = ['nodes'] as const;
const PENDING_KEY = ['pending-nodes'] as const;
/** A node turns offline 90 s after its last call: the list is read again while it is on screen. */
const REFRESH_MS = 15_000;

/** GET /v1/nodes: one page of nodes, with their state and apply errors. */
export const useNodeList = (query: NodeQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...NODES_KEY, 'list', query],
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => http.get<ListPage<NodeView>>('/v1/nodes', { query: { ...query }, signal }),
  });
};

/** GET /v1/pending-nodes: agents that registered with the install token and wait for an answer. */
export const usePendingNodes = () => {
  const http = useHttp();
  return useQuery({
    queryKey: PENDING_KEY,
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => http.get<ListPage<PendingNode>>('/v1/pending-nodes', { signal }),
    select: (answer) => answer.list,
  });
};

/** Line groups (`/v1/node-groups`) or regions (`/v1/regions`): a handful of names. */
export const useNodePlaces = (kind: 'node-groups' | 'regions') => {
  const http = useHttp();
  return useQuery({
    queryKey: [kind],
    queryFn: ({ signal }) => http.get<ListPage<NodePlace>>(`/v1/${kind}`, { signal }),
    select: (answer) => answer.list,
  });
};

/** The cluster's install token (GET), and a new one (POST) that stops the old one. */
export const useInstallToken = (enabled: boolean) => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['install-token'],
    enabled,
    queryFn: ({ signal }) => http.get<{ install_token: string }>('/v1/nodes/install-token', { signal }),
    select: (answer) => answer.install_token,
  });
  const rotate = async () => {
    const answer = await http.post<{ install_token: string }>('/v1/nodes/install-token', {});
    queryClient.setQueryData(['install-token'], answer);
  };
  return { token: query.data, rotate };
};

export const useNodeActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const after =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await call(...args);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: NODES_KEY }),
        queryClient.invalidateQueries({ queryKey: PENDING_KEY }),
      ]);
      return answer;
    };
  return {
    accept: after((body: AddNodeBody, options?: RequestOptions) => http.post<NodeView>('/v1/nodes', body, options)),
    reject: after((id: number) => http.delete<null>(`/v1/pending-nodes/${id}`)),
    update: after((id: number, body: UpdateNodeBody, options?: RequestOptions) =>
      http.put<NodeView>(`/v1/nodes/${id}`, body, options),
    ),
    remove: after((id: number) => http.delete<null>(`/v1/nodes/${id}`)),
  };
};
