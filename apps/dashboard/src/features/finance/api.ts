import type {
  AdminRechargeBody,
  AdminUser,
  OrderList,
  OrderListQuery,
  OrderRefundBody,
  OrderView,
  PaymentChannel,
  PaymentChannels,
  RechargeOrderBody,
  User,
} from '@rampart/contracts';
import { keepPreviousData, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { HttpClient, RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useSession } from '../../shared/session/session.ts';

export type { OrderList, OrderView, PaymentChannel };
export type OrderFilter = Omit<OrderListQuery, 'page' | 'limit'>;

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

/** GET /v1/payment-channels: the channels that are set up and work now; none means no online recharge. */
export const usePaymentChannels = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['finance', 'payment-channels'],
    queryFn: ({ signal }) => http.get<PaymentChannels>('/v1/payment-channels', { signal }),
    select: (answer) => answer.list.filter((channel) => channel === 'wxpay' || channel === 'alipay'),
  });
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
    /** POST /v1/orders/{id}/refunds (admin): the refund order, paid once the provider refunded. */
    refund: after((id: number, body: OrderRefundBody, options?: RequestOptions) =>
      http.post<OrderView>(`/v1/orders/${id}/refunds`, body, options),
    ),
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
