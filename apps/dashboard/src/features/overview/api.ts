import type { AdminOverview, UserOverview } from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { AdminOverview, TopSite, UserOverview } from '@rampart/contracts';

/** Each home page loads in one call, refreshed every minute while open. */
const REFRESH_MS = 60_000;

export const useAdminOverview = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['overview', 'admin'],
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => http.get<AdminOverview>('/v1/admin/overview', { signal }),
  });
};

export const useUserOverview = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['overview', 'user'],
    refetchInterval: REFRESH_MS,
    queryFn: ({ signal }) => http.get<UserOverview>('/v1/user/overview', { signal }),
  });
};
