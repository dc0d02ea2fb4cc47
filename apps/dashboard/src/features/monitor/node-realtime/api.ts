import type { NodeIpLog, NodeMonitorList, NodeRealtime, NodeTop } from '@rampart/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { type RangeChoice, rangeQuery, refreshMs } from '../model/ranges.ts';

export type { NodeIpLogEntry, NodeMonitor, NodeTopEntry } from '@rampart/contracts';

/** Every node now, refreshed like the shortest charts (agents report every few seconds). */
export const useMonitorNodes = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'nodes'],
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
    queryFn: ({ signal }) => http.get<NodeMonitorList>('/v1/monitor/nodes', { signal }),
  });
};

export const useNodeRealtime = (nodeId: number | undefined, range: RangeChoice) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'node-realtime', nodeId, range],
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs(range),
    queryFn: ({ signal }) =>
      http.get<NodeRealtime>('/v1/monitor/node/realtime', {
        query: { node_id: nodeId, ...rangeQuery(range, Date.now()) },
        signal,
      }),
  });
};

export const useNodeTop = (nodeId: number | undefined, range: RangeChoice, enabled: boolean) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'node-top', nodeId, range],
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: refreshMs(range),
    queryFn: ({ signal }) =>
      http.get<NodeTop>('/v1/monitor/node/top', {
        query: { node_id: nodeId, ...rangeQuery(range, Date.now()), limit: 10 },
        signal,
      }),
  });
};

export const useNodeIpLog = (
  nodeId: number | undefined,
  range: RangeChoice,
  ip: string | undefined,
  enabled: boolean,
) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['monitor', 'node-ip-log', nodeId, range, ip],
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: refreshMs(range),
    queryFn: ({ signal }) =>
      http.get<NodeIpLog>('/v1/monitor/node/ip-log', {
        query: { node_id: nodeId, ...rangeQuery(range, Date.now()), ip, limit: 50 },
        signal,
      }),
  });
};
