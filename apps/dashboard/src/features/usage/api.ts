import type { Usage, UsageQuery, UserUsageList } from '@rampart/contracts';
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
