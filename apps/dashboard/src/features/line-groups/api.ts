import {
  type DnsDrift,
  type DnsTtlSettings,
  type LineBody,
  type LineGroupBody,
  type LineGroupUpdate,
  type LineGroupView,
  type LineSyncResult,
  type LineView,
  MAX_LIMIT,
  type NodeView,
} from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { DnsDrift, DnsTtlSettings, LineGroupView, LineView };

interface ListPage<T> {
  list: T[];
  total: number;
}

/** A CNAME domain as `/v1/cname-domains` answers it, with the account and zone it is published through. */
export interface CnameDomain {
  id: number;
  domain: string;
  is_default: boolean;
  note: string;
  dnsapi_id: number | null;
  zone: string;
}

export interface CnameDomainChange {
  is_default?: boolean;
  note?: string;
  dnsapi_id?: number | null;
  zone?: string;
}

const GROUPS_KEY = ['node-groups'] as const;
const LINES_KEY = ['lines'] as const;
const CNAME_KEY = ['cname-domains'] as const;
const TTL_KEY = ['dns-ttl'] as const;
export const DNS_TTL_PATH = '/v1/configs/global-0-dns-ttl';

/** GET /v1/node-groups: every line group with its records. */
export const useLineGroups = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...GROUPS_KEY],
    queryFn: ({ signal }) => http.get<ListPage<LineGroupView>>('/v1/node-groups', { signal }),
    select: (answer) => answer.list,
  });
};

/** GET /v1/node-groups/{id}. */
export const useLineGroup = (id: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...GROUPS_KEY, id],
    queryFn: ({ signal }) => http.get<LineGroupView>(`/v1/node-groups/${id}`, { signal }),
  });
};

/** GET /v1/lines: the DNS lines, the default one first. */
export const useLines = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...LINES_KEY],
    queryFn: ({ signal }) => http.get<ListPage<LineView>>('/v1/lines', { signal }),
    select: (answer) => answer.list,
  });
};

/** GET /v1/cname-domains. */
export const useCnameDomains = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...CNAME_KEY],
    queryFn: ({ signal }) => http.get<ListPage<CnameDomain>>('/v1/cname-domains', { signal }),
    select: (answer) => answer.list,
  });
};

/** Every node (for the IPs a line group's records may name). */
export const useAllNodes = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['nodes', 'all'],
    queryFn: ({ signal }) =>
      http.get<ListPage<NodeView>>('/v1/nodes', { query: { page: 1, limit: MAX_LIMIT }, signal }),
    select: (answer) => answer.list,
  });
};

export const useLineGroupActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const after =
    <A extends unknown[], R>(keys: readonly (readonly string[])[], call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await call(...args);
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      return answer;
    };
  return {
    createGroup: after([GROUPS_KEY], (body: LineGroupBody, options?: RequestOptions) =>
      http.post<LineGroupView>('/v1/node-groups', body, options),
    ),
    updateGroup: after([GROUPS_KEY], (id: number, body: LineGroupUpdate, options?: RequestOptions) =>
      http.put<LineGroupView>(`/v1/node-groups/${id}`, body, options),
    ),
    removeGroup: after([GROUPS_KEY], (id: number) => http.delete<null>(`/v1/node-groups/${id}`)),
    createLine: after([LINES_KEY], (body: LineBody, options?: RequestOptions) =>
      http.post<LineView>('/v1/lines', body, options),
    ),
    removeLine: after([LINES_KEY], (id: number) => http.delete<null>(`/v1/lines/${id}`)),
    syncLines: after([LINES_KEY], (dnsapiId: number) =>
      http.post<LineSyncResult>('/v1/lines/sync', { dnsapi_id: dnsapiId }),
    ),
    createCnameDomain: after([CNAME_KEY], (body: { domain: string } & CnameDomainChange, options?: RequestOptions) =>
      http.post<CnameDomain>('/v1/cname-domains', body, options),
    ),
    updateCnameDomain: after([CNAME_KEY, GROUPS_KEY], (id: number, body: CnameDomainChange, options?: RequestOptions) =>
      http.put<CnameDomain>(`/v1/cname-domains/${id}`, body, options),
    ),
    removeCnameDomain: after([CNAME_KEY], (id: number) => http.delete<null>(`/v1/cname-domains/${id}`)),
  };
};

/** The record TTLs (configs global-0-dns-ttl); GET and PUT both answer the value. */
export const useDnsTtl = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...TTL_KEY],
    queryFn: ({ signal }) => http.get<DnsTtlSettings>(DNS_TTL_PATH, { signal }),
  });
};

/** Saves the TTLs, then republishes every line group so the records take them now. */
export const useSaveDnsTtl = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return async (ttl: DnsTtlSettings, options?: RequestOptions) => {
    const saved = await http.put<DnsTtlSettings>(DNS_TTL_PATH, ttl, options);
    queryClient.setQueryData([...TTL_KEY], saved);
    const repaired = await http.post<ListPage<DnsDrift>>('/v1/node-groups/drift/repair');
    await queryClient.invalidateQueries({ queryKey: [...GROUPS_KEY] });
    return repaired.list;
  };
};

/** GET /v1/node-groups/{id}/drift: the group's records at its provider against what publishing writes. */
export const useDnsDrift = (id: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...GROUPS_KEY, id, 'drift'],
    queryFn: ({ signal }) => http.get<DnsDrift>(`/v1/node-groups/${id}/drift`, { signal }),
    gcTime: 0,
  });
};

/** POST /v1/node-groups/{id}/drift/repair: republishes the group and answers the differences left. */
export const useRepairDnsDrift = (id: number) => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return async () => {
    const left = await http.post<DnsDrift>(`/v1/node-groups/${id}/drift/repair`);
    queryClient.setQueryData([...GROUPS_KEY, id, 'drift'], left);
    await queryClient.invalidateQueries({ queryKey: [...GROUPS_KEY], exact: true });
    return left;
  };
};
