// @vitest-environment jsdom
import type { UpgradeView, UserPackageView } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { ExtendPacks } from './ExtendPacks.tsx';

const PACKAGE: UserPackageView = {
  id: 7,
  user_id: 2,
  username: 'dee',
  package_id: 1,
  package_name: 'Basic',
  name: 'Shop',
  term: 'month',
  state: 'active',
  auto_renew: false,
  traffic_exceeded: false,
  start_at: '2026-10-01T00:00:00.000Z',
  end_at: '2026-12-31T00:00:00.000Z',
  limits: { traffic_gb: 0, bandwidth_mbps: 0, max_sites: 4, max_domains: 10, max_streams: 0, max_ports: 0 },
  used: { sites: 0, domains: 0, streams: 0 },
  features: {
    https: true,
    waf: true,
    hotlink: true,
    url_auth: true,
    error_pages: true,
    redirects: true,
    health_check: true,
    geo: true,
  },
  created_at: '2026-10-01T00:00:00.000Z',
};
const pack = (end: string): UpgradeView => ({
  id: 3,
  user_package_id: 7,
  package_up_id: 5,
  name: '+1 site',
  kind: 'max_sites',
  amount: 1,
  adds: 1,
  end_at: end,
  created_at: '2026-10-01T00:00:00.000Z',
});
const EARLY = [pack('2026-12-01T00:00:00.000Z')];
const PATH = '/v1/user-package/7/upgrades';

describe('extend packs to the package’s end', () => {
  let root: Root | undefined;
  beforeEach(() => installDomStubs());
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  /** Serves the quote; each paying PUT is recorded and answered by `answer`. */
  const open = (
    upgrades: UpgradeView[],
    answer: () => Response,
    userPackage: UserPackageView = PACKAGE,
  ): { payments: unknown[]; quotes: number } => {
    const asked = { payments: [] as unknown[], quotes: 0 };
    const envelope = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url === '/v1/user' && init.method === 'GET') return envelope({ id: 2, balance: 0 });
        if (url !== PATH || init.method !== 'PUT') throw new Error(`unexpected ${init.method} ${url}`);
        const body = JSON.parse(String(init.body)) as { quote?: boolean };
        if (body.quote) {
          asked.quotes++;
          return envelope({ extended: 1, price: 300, balance: 1000, quote: true });
        }
        asked.payments.push(body);
        return answer();
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <ExtendPacks userPackage={userPackage} upgrades={upgrades} />
          </MemoryRouter>
        </QueryClientProvider>
      </AppProviders>,
    );
    return asked;
  };
  const extendButton = () => document.querySelector<HTMLButtonElement>('[data-testid="extend-packs:Shop"]');

  it('offers nothing when every pack lasts until the package’s end, or the package is not active', async () => {
    open([pack(PACKAGE.end_at)], () => new Response());
    await waitFor(() => document.body.querySelector('div'));
    expect(extendButton()).toBeNull();
    root?.unmount();
    open(EARLY, () => new Response(), { ...PACKAGE, state: 'expired' });
    expect(extendButton()).toBeNull();
  });

  it('shows the quoted price first, pays exactly it once confirmed, and says so', async () => {
    const asked = open(
      EARLY,
      () =>
        new Response(
          JSON.stringify({ code: 0, msg: 'ok', data: { extended: 1, price: 300, balance: 700, quote: false } }),
        ),
    );
    (await waitFor(extendButton)).click();
    const price = await waitFor(() => document.querySelector('[data-testid="extend-price"]'));
    expect(price.textContent).toBe('3.00');
    expect(asked).toMatchObject({ quotes: 1, payments: [] });
    buttonByText(document.body, 'Pay from balance').click();
    await waitFor(() => document.body.textContent?.includes('Upgrade packs extended to the package’s end'));
    expect(asked.payments).toEqual([{ price: 300 }]);
    await waitFor(() => document.querySelector('[data-testid="extend-price"]') === null);
  });

  it('keeps the dialog open with the server’s reason in the page’s words when the balance is too low', async () => {
    const refusal = 'The balance 1.00 does not cover 3.00: 2.00 short';
    const params = { balance: '1.00', price: '3.00', short: '2.00' };
    const msg = 'the balance (1.00) does not cover 3.00; recharge 2.00 more';
    const asked = open(
      EARLY,
      () => new Response(JSON.stringify({ code: 'balance_insufficient', msg, data: null, params }), { status: 402 }),
    );
    (await waitFor(extendButton)).click();
    await waitFor(() => document.querySelector('[data-testid="extend-price"]'));
    buttonByText(document.body, 'Pay from balance').click();
    const notice = await waitFor(() => document.querySelector('[data-testid="balance-short"]'));
    expect(notice.textContent).toContain(refusal);
    expect(document.querySelector('[data-testid="recharge-link"]')).not.toBeNull();
    expect(document.querySelector('[data-testid="extend-price"]')).not.toBeNull();
    expect(asked.payments).toHaveLength(1);
  });
});
