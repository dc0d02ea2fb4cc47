import type {
  AgentCheck,
  AgentRelease,
  AgentUpgradeList,
  AgentUpgradeLog,
  MasterUpgradeList,
  StartAgentUpgradeBody,
  StartTransferBody,
  SysOpLogAnswer,
} from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { AgentCheck, AgentRelease, AgentUpgradeList, AgentUpgradeLog, MasterUpgradeList, SysOpLogAnswer };

const KEY = ['sys-op'] as const;
// While something runs, its page asks again this often.
const RUNNING_REFRESH_MS = 2000;

/** The release bundle as it is, with the version and checksum it must match. */
export interface BundleUpload {
  file: Blob;
  version: string;
  sha256: string;
}

export const useAgentUpgrades = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'agent-upgrades'],
    queryFn: ({ signal }) =>
      http.get<AgentUpgradeList>('/v1/agent/upgrades', { query: { page: 1, limit: 50 }, signal }),
    refetchInterval: (query) =>
      query.state.data?.list.some((upgrade) => upgrade.state === 'running') ? RUNNING_REFRESH_MS : false,
  });
};

export const useUpgradeLog = (id: number | null) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'agent-upgrade-log', id],
    enabled: id !== null,
    queryFn: ({ signal }) => http.get<AgentUpgradeLog>(`/v1/agent/upgrades/log/${id}`, { signal }),
    refetchInterval: (query) => (query.state.data?.upgrade.state === 'running' ? RUNNING_REFRESH_MS : false),
  });
};

export const useMasterUpgrades = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'master-upgrades'],
    queryFn: ({ signal }) =>
      http.get<MasterUpgradeList>('/v1/master/upgrades', { query: { page: 1, limit: 20 }, signal }),
    refetchInterval: (query) =>
      query.state.data?.list.some((op) => op.state === 'running' || op.state === 'waiting')
        ? RUNNING_REFRESH_MS
        : false,
  });
};

export const useTransferLog = () => {
  const http = useHttp();
  return useQuery({
    queryKey: [...KEY, 'transfer-log'],
    queryFn: ({ signal }) => http.get<SysOpLogAnswer>('/v1/master/transfer-log', { signal }),
    refetchInterval: (query) => {
      const state = query.state.data?.op?.state;
      return state === 'running' || state === 'waiting' ? RUNNING_REFRESH_MS : false;
    },
  });
};

export const useSysOpActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const upload = (path: string, bundle: BundleUpload, options?: RequestOptions) =>
    http.request<unknown>('POST', path, {
      ...options,
      query: { version: bundle.version, sha256: bundle.sha256 },
      body: bundle.file,
    });
  return {
    agentCheck: (wait: number) => http.post<AgentCheck>('/v1/maintain/agent-check', { wait }),
    agentCheckResult: (id: number) => http.get<AgentCheck>(`/v1/maintain/agent-check/${id}`),
    uploadRelease: async (bundle: BundleUpload, options?: RequestOptions) => {
      await upload('/v1/agent/upgrades/releases', bundle, options);
      await refresh();
    },
    registerBuiltIn: async () => {
      const release = await http.post<AgentRelease>('/v1/agent/upgrades/releases/built-in', {});
      await refresh();
      return release;
    },
    startUpgrade: async (body: StartAgentUpgradeBody, options?: RequestOptions) => {
      const log = await http.post<AgentUpgradeLog>('/v1/agent/upgrades', body, options);
      await refresh();
      return log;
    },
    cancelUpgrade: async (id: number) => {
      await http.post<AgentUpgradeLog>(`/v1/agent/upgrades/${id}/cancel`);
      await refresh();
    },
    upgradeMaster: async (bundle: BundleUpload, options?: RequestOptions) => {
      await upload('/v1/master/upgrades', bundle, options);
      await refresh();
    },
    startTransfer: async (body: StartTransferBody, options?: RequestOptions) => {
      await http.post<{ id: number }>('/v1/master/start-transfer', body, options);
      await refresh();
    },
    stopTransfer: async () => {
      await http.post<{ id: number }>('/v1/master/stop-transfer');
      await refresh();
    },
  };
};
