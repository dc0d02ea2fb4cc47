import type { CreateSiteBody, LineGroupView, Site, SiteGroup, UpdateSiteBody } from '@rampart/contracts';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { HttpClient, RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { type ListPage, SITES_KEY, type SiteListQuery, siteGroupsQuery, siteListQuery } from './siteQueries.ts';

export type { ListPage, SiteListQuery } from './siteQueries.ts';

export type BatchAction = 'enable' | 'disable' | 'delete' | 'move';

export interface ApplyStatus {
  version: number;
  nodes: { node_id: number; name: string; applied: boolean; error: string }[];
}

export const useSiteList = (query: SiteListQuery) => {
  const http = useHttp();
  return useQuery(siteListQuery(http, query));
};

export const useSite = (id: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...SITES_KEY, 'one', id],
    queryFn: ({ signal }) => http.get<Site>(`/v1/sites/${id}`, { signal }),
  });
};

/** GET /v1/{sites|streams}/{id}/apply-status, polled while some node has not applied the current version. */
export const useApplyStatusOf = (kind: 'sites' | 'streams', id: number) => {
  const http = useHttp();
  return useQuery<ApplyStatus>({
    queryKey: [kind, 'apply-status', id],
    refetchInterval: (query) => (query.state.data?.nodes.some((node) => !node.applied) ? 5000 : false),
    queryFn: ({ signal }) => http.get<ApplyStatus>(`/v1/${kind}/${id}/apply-status`, { signal }),
  });
};

export const useApplyStatus = (id: number) => useApplyStatusOf('sites', id);

const groupList = (answer: { list: SiteGroup[] }) => answer.list;

export const useSiteGroups = () => {
  const http = useHttp();
  return useQuery({ ...siteGroupsQuery(http), select: groupList });
};

const lineGroupList = (answer: { list: LineGroupView[] }) => answer.list;

/** GET /v1/node-groups (administrators): the line groups a site's CNAME may point at. */
export const useLineGroupChoices = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['node-groups'],
    queryFn: ({ signal }) => http.get<ListPage<LineGroupView>>('/v1/node-groups', { signal }),
    select: lineGroupList,
  });
};

const siteActions = (http: HttpClient, queryClient: QueryClient) => {
  const refresh = () => queryClient.invalidateQueries({ queryKey: SITES_KEY });
  const after =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await call(...args);
      await refresh();
      return answer;
    };
  return {
    create: after((body: CreateSiteBody, options?: RequestOptions) => http.post<Site>('/v1/sites', body, options)),
    update: after((id: number, body: UpdateSiteBody, options?: RequestOptions) =>
      http.put<Site>(`/v1/sites/${id}`, body, options),
    ),
    remove: after((id: number) => http.delete<unknown>(`/v1/sites/${id}`)),
    batch: after((ids: number[], action: BatchAction, groupId?: number | null) =>
      http.put<unknown>('/v1/sites', { ids, action, ...(groupId !== undefined && { group_id: groupId }) }),
    ),
  };
};

/** Calls that change sites; each refreshes the site queries once it succeeds. The same object across renders. */
export const useSiteActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return useMemo(() => siteActions(http, queryClient), [http, queryClient]);
};

export const useGroupActions = (base: '/v1/site-groups' | '/v1/stream-groups', key: string) => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (call: () => Promise<unknown>) => call(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [key] }),
  });
  return {
    pending: mutation.isPending,
    create: (name: string) => mutation.mutateAsync(() => http.post(base, { name })),
    rename: (id: number, name: string) => mutation.mutateAsync(() => http.put(`${base}/${id}`, { name })),
    remove: (id: number) => mutation.mutateAsync(() => http.delete(`${base}/${id}`)),
  };
};
