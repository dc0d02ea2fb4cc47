import type { CnameCheck, CreateDnsApiBody, DnsApi, DomainSyncResult, UpdateDnsApiBody } from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import type { ListPage } from '../sites/api.ts';

export type { CnameCheck, DomainSyncResult } from '@rampart/contracts';

const DNSAPIS_KEY = ['dnsapis'] as const;

export const useDnsApis = (enabled = true) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...DNSAPIS_KEY, 'list'],
    enabled,
    queryFn: ({ signal }) => http.get<ListPage<DnsApi>>('/v1/dnsapis', { signal }),
    select: (answer) => answer.list,
  });
};

export const useDnsActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: DNSAPIS_KEY });
  return {
    create: async (body: CreateDnsApiBody, options?: RequestOptions) => {
      await http.post<DnsApi>('/v1/dnsapis', body, options);
      await refresh();
    },
    update: async (id: number, body: UpdateDnsApiBody, options?: RequestOptions) => {
      await http.put<DnsApi>(`/v1/dnsapis/${id}`, body, options);
      await refresh();
    },
    remove: async (id: number) => {
      await http.delete<unknown>(`/v1/dnsapis/${id}`);
      await refresh();
    },
    checkCname: (siteId: number, options?: RequestOptions) =>
      http.post<CnameCheck>('/v1/cname-check', { site_id: siteId }, options),
    createRecords: (dnsapiId: number, siteId: number) =>
      http.post<DomainSyncResult>('/v1/domains', { dnsapi_id: dnsapiId, site_id: siteId }),
  };
};
