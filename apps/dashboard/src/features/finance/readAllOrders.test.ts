import { MAX_LIMIT, type OrderView } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import type { HttpClient } from '../../shared/http/client.ts';
import { MAX_PAGES, readAllOrders } from './readAllOrders.ts';

const order = (id: number) => ({ id }) as OrderView;
const ids = (from: number, count: number) => Array.from({ length: count }, (_, at) => order(from - at));

/** A fake client answering GET /v1/orders from `pages`, recording each query. */
const fakeHttp = (total: number, pages: (page: number) => OrderView[]) => {
  const queries: Record<string, unknown>[] = [];
  const http = {
    get: async <T>(_path: string, options?: { query?: Record<string, unknown> }) => {
      const query = options?.query ?? {};
      queries.push(query);
      return { list: pages(Number(query.page)), total, sum_credit: 0, sum_debit: 0 } as T;
    },
  } as Pick<HttpClient, 'get'>;
  return { http, queries };
};

describe('readAllOrders', () => {
  it('reads page after page of MAX_LIMIT with the filter until the total, reporting progress', async () => {
    const total = MAX_LIMIT + 5;
    const { http, queries } = fakeHttp(total, (page) => (page === 1 ? ids(total, MAX_LIMIT) : ids(5, 5)));
    const progress: [number, number][] = [];
    const all = await readAllOrders(
      http,
      { kind: 'recharge' },
      { onProgress: (read, of) => progress.push([read, of]) },
    );
    expect(all).toMatchObject({ total, complete: true });
    expect(all.list).toHaveLength(total);
    expect(queries).toEqual([
      { kind: 'recharge', page: 1, limit: MAX_LIMIT },
      { kind: 'recharge', page: 2, limit: MAX_LIMIT },
    ]);
    expect(progress).toEqual([
      [MAX_LIMIT, total],
      [total, total],
    ]);
  });

  it('drops an order seen twice when new ones shift the pages', async () => {
    const { http } = fakeHttp(MAX_LIMIT + 1, (page) =>
      page === 1 ? ids(MAX_LIMIT + 1, MAX_LIMIT) : [order(2), order(1)],
    );
    const all = await readAllOrders(http, {});
    expect(all.list.map((entry) => entry.id).filter((id) => id <= 2)).toEqual([2, 1]);
  });

  it('stops after MAX_PAGES pages and says the list is not complete', async () => {
    let next = 10_000_000;
    const { http, queries } = fakeHttp(10_000_000, () => {
      next -= MAX_LIMIT;
      return ids(next, MAX_LIMIT);
    });
    const all = await readAllOrders(http, {});
    expect(queries).toHaveLength(MAX_PAGES);
    expect(all.complete).toBe(false);
    expect(all.list).toHaveLength(MAX_PAGES * MAX_LIMIT);
  });
});
