import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../shared/http/client.ts';
import { FIRST_SITE_PAGE, prefetchSiteList, siteGroupsQuery, siteListQuery } from './siteQueries.ts';

const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
const failed = () => new Response(JSON.stringify({ code: 'db', msg: 'down', data: null }), { status: 500 });

const setup = (respond: (url: string) => Response) => {
  const notify = vi.fn((_text: string) => undefined);
  const onFailure = vi.fn();
  const fetch = vi.fn(async (url: string) => respond(url));
  const http = createHttpClient({
    getToken: () => 'token',
    onLoginRequired: vi.fn(),
    notify,
    onFailure,
    translate: (key) => key,
    fetch: fetch as unknown as typeof globalThis.fetch,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
  return { http, queryClient, notify, onFailure, fetch };
};

describe('site queries', () => {
  it('prefetch the first page and the groups under the keys the list page reads', async () => {
    const { http, queryClient, fetch } = setup((url) =>
      ok(url.startsWith('/v1/sites') ? { list: [], total: 7 } : { list: [{ id: 1, name: 'shop' }], total: 1 }),
    );
    await prefetchSiteList({ http, queryClient, language: 'en-US' });
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/v1/sites?page=1&limit=20&sort=-id', '/v1/site-groups']);
    expect(queryClient.getQueryData(siteListQuery(http, { ...FIRST_SITE_PAGE }).queryKey)?.total).toBe(7);
    expect(queryClient.getQueryData(siteGroupsQuery(http).queryKey)?.list).toHaveLength(1);
  });

  it('keep a failed prefetch nobody watches quiet, and let the page that mounts show its own failure', async () => {
    const { http, queryClient, notify, onFailure, fetch } = setup(failed);
    await prefetchSiteList({ http, queryClient, language: 'en-US' });
    expect(notify).not.toHaveBeenCalled();
    expect(onFailure).toHaveBeenCalledTimes(2);

    const page = new QueryObserver(queryClient, siteListQuery(http, FIRST_SITE_PAGE));
    const unsubscribe = page.subscribe(() => undefined);
    await vi.waitFor(() => expect(notify).toHaveBeenCalledTimes(1), { timeout: 15_000 });
    expect(fetch).toHaveBeenCalledTimes(3);
    unsubscribe();
  });

  it('show the failure of a prefetch once a page watches it, without asking again', async () => {
    const { http, queryClient, notify, fetch } = setup(failed);
    const prefetch = prefetchSiteList({ http, queryClient, language: 'en-US' });
    const page = new QueryObserver(queryClient, siteListQuery(http, FIRST_SITE_PAGE));
    const unsubscribe = page.subscribe(() => undefined);
    await prefetch;
    await vi.waitFor(() => expect(page.getCurrentResult().isError).toBe(true), { timeout: 15_000 });
    expect(notify).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls.filter(([url]) => url.startsWith('/v1/sites'))).toHaveLength(1);
    unsubscribe();
  });
});
