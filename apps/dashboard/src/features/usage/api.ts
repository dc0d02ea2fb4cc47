import {
  MAX_LIMIT,
  type PackageView,
  type Usage,
  type UsageQuery,
  type UserPackageView,
  type UserUsageList,
} from '@rampart/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { Usage, UsageSite, UserUsage, UserUsageList } from '@rampart/contracts';

const USAGE_PATH = '/v1/monitor/usage';
const RANKING_PATH = '/v1/monitor/user-package';

/** A month's usage: the caller's, one site of theirs, or (admins) a named user's. */
export const useUsage = (query: UsageQuery, enabled = true) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['usage', query],
    placeholderData: keepPreviousData,
    enabled,
    queryFn: ({ signal }) => http.get<Usage>(USAGE_PATH, { query: { ...query }, signal }),
  });
};

/** Admins: the users ranked by their usage of the month. */
export const useUserUsageRanking = (month: string, page: number, limit: number) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['usage', 'ranking', month, page, limit],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<UserUsageList>(RANKING_PATH, { query: { month, page, limit }, signal }),
  });
};

interface ListPage<T> {
  list: T[];
  total: number;
}

const ALL = { page: 1, limit: MAX_LIMIT };

/** GET /v1/packages: every package for an admin, those on sale to them for a customer; quiet on failure. */
export const usePackageCatalogue = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['packages', 'catalogue'],
    retry: false,
    queryFn: ({ signal }) => http.get<ListPage<PackageView>>('/v1/packages', { query: ALL, signal, silent: true }),
    select: (answer) => answer.list,
  });
};

/** GET /v1/user-packages: the signed-in user's active packages (an admin's list holds everyone's: keep theirs). */
export const useOwnPackages = (userId: number | undefined) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['user-packages', 'active', userId],
    enabled: userId !== undefined,
    retry: false,
    queryFn: ({ signal }) =>
      http.get<ListPage<UserPackageView>>('/v1/user-packages', {
        query: { ...ALL, state: 'active' },
        signal,
        silent: true,
      }),
    select: (answer) => answer.list.filter((owned) => owned.user_id === userId),
  });
};
