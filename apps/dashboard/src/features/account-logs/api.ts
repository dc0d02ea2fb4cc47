import type { LoginLogEntry, LoginLogQuery, OpLogEntry, OpLogQuery } from '@rampart/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { LoginLogEntry, OpLogEntry };

export interface LogPage<T> {
  list: T[];
  total: number;
}

/** The filters of a log list; page and limit are always sent. */
export type OpLogFilter = Omit<OpLogQuery, 'page' | 'limit'>;
export type LoginLogFilter = Omit<LoginLogQuery, 'page' | 'limit'>;
export type Paged<Q> = Q & { page: number; limit: number };

/** GET /v1/log/op: the caller's own writes, or everyone's for admins holding admin:sys. */
export const useOpLog = (query: Paged<OpLogFilter>) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['logs', 'op', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<LogPage<OpLogEntry>>('/v1/log/op', { query: { ...query }, signal }),
  });
};

/** Saves the entries the filter finds as a CSV file (GET /v1/log/op/export: streamed, at most 100000). */
export const useOpLogExport = () => {
  const http = useHttp();
  return async (filter: OpLogFilter) => {
    const csv = await http.download('/v1/log/op/export', { query: { ...filter } });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(csv);
    link.download = `operation-log-${new Date().toISOString().slice(0, 10)}.csv`;
    link.click();
    // The click has handed the blob to the browser's download by the next task.
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
  };
};

/** GET /v1/log/login: the caller's own sign-ins, or everyone's for admins holding admin:sys. */
export const useLoginLog = (query: Paged<LoginLogFilter>) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['logs', 'login', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<LogPage<LoginLogEntry>>('/v1/log/login', { query: { ...query }, signal }),
  });
};
