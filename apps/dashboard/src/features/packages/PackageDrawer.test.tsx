// @vitest-environment jsdom
import { PACKAGE_FEATURES, type PackageView } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { PackageDrawer } from './PackageDrawer.tsx';

const PACKAGE: PackageView = {
  id: 3,
  name: 'Lite',
  group_id: null,
  group_name: null,
  line_group_id: null,
  description: '',
  price_month: 990,
  price_quarter: null,
  price_year: null,
  traffic_gb: 100,
  bandwidth_mbps: 0,
  max_sites: 2,
  max_domains: 4,
  max_streams: 0,
  max_ports: 0,
  billing: 'traffic',
  https: true,
  waf: true,
  hotlink: false,
  url_auth: true,
  error_pages: true,
  redirects: true,
  health_check: true,
  geo: false,
  cc_rule_group_ids: [],
  custom_cname: false,
  sort: 0,
  on_sale: true,
  stock: null,
  sold: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};

/** The drawer's selects measure themselves; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('the package form’s feature switches', () => {
  let root: Root | undefined;
  beforeEach(() => {
    installDomStubs();
    vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? StillObserver);
  });
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const open = (language: 'zh-CN' | 'en-US', pkg: PackageView | null) => {
    const sent: Record<string, unknown>[] = [];
    const envelope = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const path = url.split('?')[0] ?? '';
        if (init.method === 'GET') return envelope({ list: [], total: 0 });
        if (
          (path === '/v1/packages/3' && init.method === 'PUT') ||
          (path === '/v1/packages' && init.method === 'POST')
        ) {
          const body = JSON.parse(String(init.body)) as Record<string, unknown>;
          sent.push(body);
          return envelope({ ...PACKAGE, ...body });
        }
        throw new Error(`unexpected ${init.method} ${url}`);
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, language)} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <PackageDrawer pkg={pkg} onClose={vi.fn()} />
          </MemoryRouter>
        </QueryClientProvider>
      </AppProviders>,
    );
    return sent;
  };
  const switchOf = (label: string) =>
    document.querySelector<HTMLButtonElement>(`button[role="switch"][aria-label="${label}"]`);
  const submit = () => document.querySelector<HTMLButtonElement>('[data-testid="package-submit"]')?.click();

  it('shows each feature’s switch as the package has it and sends every switch on save', async () => {
    const sent = open('en-US', PACKAGE);
    const hotlink = await waitFor(() => switchOf('Hotlink protection'));
    expect(hotlink.getAttribute('aria-checked')).toBe('false');
    expect(switchOf('Signed URLs')?.getAttribute('aria-checked')).toBe('true');
    expect(switchOf('Country and ASN rules')?.getAttribute('aria-checked')).toBe('false');
    expect(document.querySelectorAll('[data-testid="package-features"] button[role="switch"]')).toHaveLength(
      PACKAGE_FEATURES.length,
    );
    hotlink.click();
    switchOf('Signed URLs')?.click();
    submit();
    await waitFor(() => sent.length > 0);
    expect(sent[0]).toMatchObject({
      https: true,
      waf: true,
      hotlink: true,
      url_auth: false,
      error_pages: true,
      redirects: true,
      health_check: true,
      geo: false,
    });
  });

  it('starts a new package with every feature allowed, labelled in Chinese on a zh-CN page', async () => {
    open('zh-CN', null);
    await waitFor(() => switchOf('防盗链'));
    for (const label of [
      'HTTPS',
      'WAF 规则防护',
      '防盗链',
      'URL 鉴权',
      '自定义错误页',
      '重定向与重写',
      '源站健康检查',
      '国家与 ASN 规则',
    ])
      expect(switchOf(label)?.getAttribute('aria-checked'), label).toBe('true');
  });
});
