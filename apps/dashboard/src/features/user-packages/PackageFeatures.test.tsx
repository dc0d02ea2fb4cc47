// @vitest-environment jsdom
import type { DiscountView, PackageView, SitePackageFeatures } from '@rampart/contracts';
import Form from 'antd/es/form';
import Switch from 'antd/es/switch';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { PackageCard } from './PackageCard.tsx';
import { featureLocked, gatedTab } from './SiteFeatureGate.tsx';

const ALL = {
  https: true,
  waf: true,
  hotlink: true,
  url_auth: true,
  error_pages: true,
  redirects: true,
  health_check: true,
  geo: true,
};
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
  ...ALL,
  hotlink: false,
  url_auth: false,
  cc_rule_group_ids: [],
  custom_cname: false,
  sort: 0,
  on_sale: true,
  stock: null,
  sold: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};
const NO_DISCOUNTS: DiscountView[] = [];

describe('package features on the customer’s pages', () => {
  let root: Root | undefined;
  beforeEach(() => installDomStubs());
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const render = (language: 'zh-CN' | 'en-US', children: React.ReactNode) => {
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, language)} onLoginRequired={vi.fn()}>
        <MemoryRouter>{children}</MemoryRouter>
      </AppProviders>,
    );
    return container;
  };
  const feature = (name: string) => document.querySelector<HTMLElement>(`[data-testid="package-feature:Lite:${name}"]`);

  it.each([
    ['en-US', 'Hotlink protection', 'Yes', 'No'],
    ['zh-CN', '防盗链', '支持', '不支持'],
  ] as const)(
    'lists every feature on the buy page’s card, included or not, in %s',
    async (language, hotlink, yes, no) => {
      const card = render(language, <PackageCard pkg={PACKAGE} discounts={NO_DISCOUNTS} onBuy={vi.fn()} />);
      await waitFor(() => feature('geo'));
      expect(card.textContent).toContain(hotlink);
      for (const name of Object.keys(ALL)) {
        const allowed = name !== 'hotlink' && name !== 'url_auth';
        expect(feature(name)?.dataset.allowed, name).toBe(String(allowed));
        expect(feature(name)?.textContent, name).toBe(allowed ? yes : no);
      }
    },
  );

  const state = (change: Partial<SitePackageFeatures>): SitePackageFeatures => ({
    limited: true,
    user_package_id: 9,
    package_name: 'Lite',
    features: { ...ALL, hotlink: false, https: false },
    in_use: [],
    beyond: [],
    ...change,
  });
  const tab = (language: 'zh-CN' | 'en-US', features: SitePackageFeatures | undefined, key = 'hotlink') =>
    render(
      language,
      <Form>
        {gatedTab(
          features,
          key,
          <Form.Item name="on" valuePropName="checked">
            <Switch aria-label="switch" />
          </Form.Item>,
        )}
      </Form>,
    );
  const theSwitch = () => document.querySelector<HTMLButtonElement>('button[role="switch"]');

  it('shows a notice on a tab whose feature the package forbids, and keeps its switch off', async () => {
    tab('en-US', state({}));
    const notice = await waitFor(() => document.querySelector('[data-testid="package-feature-notice:hotlink"]'));
    expect(notice.textContent).toContain('Your package Lite does not include Hotlink protection');
    expect(theSwitch()?.disabled).toBe(true);
    theSwitch()?.click();
    expect(theSwitch()?.getAttribute('aria-checked')).toBe('false');
  });

  it('words the notice in Chinese on a zh-CN page', async () => {
    tab('zh-CN', state({}));
    const notice = await waitFor(() => document.querySelector('[data-testid="package-feature-notice:hotlink"]'));
    expect(notice.textContent).toContain('您的套餐“Lite”不包含防盗链');
  });

  it('leaves the tab alone when the package includes the feature or nothing limits the site', async () => {
    tab('en-US', state({ features: ALL }));
    await waitFor(theSwitch);
    expect(document.querySelector('[data-testid^="package-feature-notice"]')).toBeNull();
    expect(theSwitch()?.disabled).toBe(false);
    root?.unmount();
    tab('en-US', state({ limited: false }));
    await waitFor(theSwitch);
    expect(document.querySelector('[data-testid^="package-feature-notice"]')).toBeNull();
    root?.unmount();
    tab('en-US', undefined, 'basic');
    expect((await waitFor(theSwitch)).disabled).toBe(false);
  });

  it('lets a site that already uses a dropped feature turn it off, and says it cannot come back', async () => {
    tab('en-US', state({ in_use: ['hotlink'], beyond: ['hotlink'] }));
    const notice = await waitFor(() => document.querySelector('[data-testid="package-feature-notice:hotlink"]'));
    expect(notice.textContent).toContain('no longer includes Hotlink protection');
    expect(theSwitch()?.disabled).toBe(false);
  });

  it('puts both protection notices on the protection tab without locking it, and locks only the HTTPS switch', async () => {
    tab('en-US', state({ features: { ...ALL, waf: false, geo: false } }), 'protection');
    await waitFor(() => document.querySelector('[data-testid="package-feature-notice:geo"]'));
    expect(document.querySelector('[data-testid="package-feature-notice:waf"]')).not.toBeNull();
    expect(theSwitch()?.disabled).toBe(false);
    expect(featureLocked(state({}), 'https')).toBe(true);
    expect(featureLocked(state({ beyond: ['https'] }), 'https')).toBe(false);
    expect(featureLocked(state({ limited: false }), 'https')).toBe(false);
    expect(featureLocked(undefined, 'https')).toBe(false);
  });
});
