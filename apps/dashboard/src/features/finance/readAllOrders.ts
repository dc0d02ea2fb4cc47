import { MAX_LIMIT, type OrderList, type OrderView } from '@rampart/contracts';
import type { HttpClient } from '../../shared/http/client.ts';
import type { OrderFilter } from './api.ts';

/** At most this many pages of MAX_LIMIT orders are read for an export or statistics (100,000 orders). */
export const MAX_PAGES = 100;

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
  http: Pick<HttpClient, 'get'>,
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
