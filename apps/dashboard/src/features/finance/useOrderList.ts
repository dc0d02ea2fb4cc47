import { useState } from 'react';
import { type OrderFilter, useOrders } from './api.ts';

/** An order list's filter and page: a new filter goes back to page 1. */
export const useOrderList = (fixed: OrderFilter = {}) => {
  const [filter, setFilter] = useState<OrderFilter>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const query = { ...filter, ...fixed };
  const orders = useOrders({ ...query, page, limit: pageSize });
  return {
    filter: query,
    orders,
    table: {
      orders: orders.data?.list ?? [],
      total: orders.data?.total ?? 0,
      loading: orders.isFetching && !orders.data,
      page,
      pageSize,
      onPage: (next: number, size: number) => {
        setPage(size === pageSize ? next : 1);
        setPageSize(size);
      },
    },
    change: (change: OrderFilter) => {
      setFilter((current) => ({ ...current, ...change }));
      setPage(1);
    },
  };
};
