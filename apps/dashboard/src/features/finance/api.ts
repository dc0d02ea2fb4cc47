import {
  type AdminRechargeBody,
  type AdminUser,
  MAX_LIMIT,
  type OrderList,
  type OrderListQuery,
  type OrderView,
  type RechargeOrderBody,
  type User,
} from '@rampart/contracts';
import { keepPreviousData, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { HttpClient, RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useSession } from '../../shared/session/session.ts';

export type { OrderList, OrderView };
export type OrderFilter = Omit<OrderListQuery, 'page' | 'limit'>;

/** At most this many pages of MAX_LIMIT orders are read for an export or statistics (100,000 orders). */
export const MAX_PAGES = 100;

const ORDERS_KEY = ['orders'] as const;

/** GET /v1/orders: one page and the sums over the whole filter (the caller's own orders unless admin). */
export const useOrders = (query: OrderListQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...ORDERS_KEY, 'list', query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<OrderList>('/v1/orders', { query: { ...query }, signal }),
  });
};

export interface AllOrders {
  list: OrderView[];
  total: number;
  /** False when the filter matched more than MAX_PAGES pages: the list is the newest part. */
  complete: boolean;
}

/**
 * Every order of a filter, MAX_LIMIT a page and at most MAX_PAGES pages, newest first; `onProgress`
 * hears how many are read of how many. Orders arriving meanwhile shift the pages, so a repeated id is dropped.
 */
export const readAllOrders = async (
  http: HttpClient,
  filter: OrderFilter,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (read: number, total: number) => void } = {},
): Promise<AllOrders> => {
  const seen = new Set<number>();
  const list: OrderView[] = [];
  let total = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await http.get<OrderList>('/v1/orders', {
      query: { ...filter, page, limit: MAX_LIMIT },
      ...(signal && { signal }),
    });
    total = answer.total;
    for (const order of answer.list) {
      if (seen.has(order.id)) continue;
      seen.add(order.id);
      list.push(order);
    }
    onProgress?.(list.length, total);
    if (answer.list.length < MAX_LIMIT || page * MAX_LIMIT >= total) return { list, total, complete: true };
  }
  return { list, total, complete: list.length >= total };
};

/** The signed-in user's profile, read again so that the balance is today's; the stored user follows it. */
export const useFreshBalance = () => {
  const http = useHttp();
  const setUser = useSession((state) => state.setUser);
  const stored = useSession((state) => state.user?.balance ?? 0);
  const query = useQuery({
    queryKey: ['finance', 'profile'],
    // GET /v1/user reads the balance now; the session (GET /v1/common/auth) may hold an older one.
    queryFn: async ({ signal }) => {
      const user = await http.get<User>('/v1/user', { signal });
      setUser(user);
      return user;
    },
  });
  return { balance: query.data?.balance ?? stored, refresh: query.refetch };
};

/** GET /v1/users?search=: a few users for a picker. */
export const useUserSearch = (search: string, enabled: boolean) => {
  const http = useHttp();
  return useQuery({
    queryKey: ['users', 'finance-search', search],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      http.get<{ list: AdminUser[]; total: number }>('/v1/users', {
        query: { page: 1, limit: 20, ...(search && { search }) },
        signal,
      }),
    select: (answer) => answer.list,
  });
};

export const useOrderActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return useMemo(() => orderActions(http, queryClient), [http, queryClient]);
};

const orderActions = (http: HttpClient, queryClient: QueryClient) => {
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ORDERS_KEY }),
      queryClient.invalidateQueries({ queryKey: ['finance', 'profile'] }),
    ]);
  const after =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const answer = await call(...args);
      await refresh();
      return answer;
    };
  return {
    refresh,
    openRecharge: after((body: RechargeOrderBody, options?: RequestOptions) =>
      http.post<OrderView>('/v1/orders', body, options),
    ),
    close: after((id: number) => http.put<OrderView>(`/v1/orders/${id}`, { state: 'closed' })),
    adjust: after((uid: number, body: AdminRechargeBody, options?: RequestOptions) =>
      http.post<OrderView>(`/v1/user/${uid}/recharge`, body, options),
    ),
    /** GET /v1/orders/{id}, quietly: the payment wait asks again on a failure. */
    read: (id: number, signal?: AbortSignal) =>
      http.get<OrderView>(`/v1/orders/${id}`, { silent: true, ...(signal && { signal }) }),
    /** POST /v1/{wxpay|alipay}/preorder: what to pay the order with; failures come back to the caller. */
    preorder: (order: OrderView) =>
      http.post<unknown>(
        `/v1/${order.channel === 'alipay' ? 'alipay' : 'wxpay'}/preorder`,
        { order_id: order.id },
        {
          silent: true,
        },
      ),
  };
};
