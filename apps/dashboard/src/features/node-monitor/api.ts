import type { IpSwitchEntry, IpSwitchQuery, NodeIpStateEntry, NodeMonitorSettings } from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { IpSwitchEntry, NodeIpStateEntry, NodeMonitorSettings };

export interface ListPage<T> {
  list: T[];
  total: number;
}

export const MONITOR_SETTINGS_PATH = '/v1/configs/global-0-node-monitor';
const KEY = ['node-monitor'] as const;
/** States change within a few probe intervals: read again while the page is open. */
const REFRESH_MS = 5000;

/** The monitor settings (configs global-0-node-monitor); GET and PUT both answer the value. */
export const useMonitorSettings = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'settings'],
    queryFn: ({ signal }) => http.get<NodeMonitorSettings>(MONITOR_SETTINGS_PATH, { signal }),
  });
};

export const useSaveMonitorSettings = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return async (settings: NodeMonitorSettings, options?: RequestOptions) => {
    const saved = await http.put<NodeMonitorSettings>(MONITOR_SETTINGS_PATH, settings, options);
    queryClient.setQueryData([...KEY, 'settings'], saved);
    return saved;
  };
};

/** GET /v1/monitor/node/ip-state: every enabled node IP, up or down, with the probes' votes. */
export const useIpStates = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'states'],
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => http.get<ListPage<NodeIpStateEntry>>('/v1/monitor/node/ip-state', { signal }),
    select: (answer) => answer.list,
  });
};

export type SwitchQuery = Required<Pick<IpSwitchQuery, 'page' | 'limit'>> & Pick<IpSwitchQuery, 'ip' | 'to'>;

/** GET /v1/log/ip-switch: one page of switches, newest first. */
export const useIpSwitchLog = (query: SwitchQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'switches', query],
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => http.get<ListPage<IpSwitchEntry>>('/v1/log/ip-switch', { query: { ...query }, signal }),
  });
};
