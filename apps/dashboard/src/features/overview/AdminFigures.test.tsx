// @vitest-environment jsdom
import type { AdminOverview } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { AdminFigures } from './AdminFigures.tsx';

const ZERO = { bytes_in: 0, bytes_out: 0, requests: 0, cache_hits: 0, blocked: 0 };

/** What the master answers an admin holding only admin:node. */
const NODE_ADMIN: AdminOverview = {
  nodes: { total: 3, online: 2, offline: 1 },
  sites: null,
  streams: null,
  users: null,
  new_users_today: null,
  packages_sold_today: null,
  orders_today: null,
  today: { ...ZERO, requests: 7 },
  trend: [{ date: '2026-11-27', ...ZERO }],
  top_sites: null,
};

// ECharts draws on a canvas, which jsdom has not: the chart stands in as its test id.
vi.mock('../usage/shared/DailyTrafficChart.tsx', () => ({
  DailyTrafficChart: ({ testId }: { testId: string }) => <div data-testid={testId} />,
}));

describe('admin home figures', () => {
  let root: Root | undefined;
  beforeEach(() => installDomStubs());
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const open = (overview: AdminOverview) => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(new URL(url, 'http://localhost').pathname);
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: overview }));
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <AdminFigures />
        </QueryClientProvider>
      </AppProviders>,
    );
    return { container, calls };
  };

  const figure = (container: HTMLElement, key: string) =>
    container.querySelector(`[data-testid="overview-figure-${key}"]`);

  it('shows only the figures the master answered, and calls nothing but the overview', async () => {
    const { container, calls } = open(NODE_ADMIN);
    await waitFor(() => figure(container, 'nodes-online'));
    expect(figure(container, 'nodes-online')?.textContent).toContain('2');
    expect(figure(container, 'requests')?.textContent).toContain('7');
    for (const key of ['sites', 'streams', 'users', 'new-users', 'packages-sold', 'orders']) {
      expect(figure(container, key), key).toBeNull();
    }
    expect(container.querySelector('[data-testid="overview-trend"]')).not.toBeNull();
    expect(container.querySelector('[data-testid="overview-top-sites"]')).toBeNull();
    expect(calls).toEqual(['/v1/admin/overview']);
  });

  it('leaves out a panel with no figure in it', async () => {
    const { container } = open({ ...NODE_ADMIN, nodes: null, orders_today: 5, today: null, trend: null });
    await waitFor(() => figure(container, 'orders'));
    expect(figure(container, 'orders')?.textContent).toContain('5');
    expect(figure(container, 'nodes-online')).toBeNull();
    expect(figure(container, 'traffic')).toBeNull();
    expect(container.querySelector('[data-testid="overview-trend"]')).toBeNull();
  });
});
