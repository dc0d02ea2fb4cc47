import type { OriginHealth } from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';

/** Nodes report their checks with their status, every half minute: read again as often. */
const REFRESH_MS = 30_000;

/** GET /v1/sites/{id}/origin-health while the section shows a check that is on. */
export const useOriginHealth = (siteId: number, enabled: boolean) => {
  const http = useHttp();
  return useQuery<OriginHealth>({
    queryKey: ['sites', 'origin-health', siteId],
    enabled,
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => http.get<OriginHealth>(`/v1/sites/${siteId}/origin-health`, { signal }),
  });
};
