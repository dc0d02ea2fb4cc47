// @vitest-environment jsdom
import { DEFAULT_SITE_HOTLINK, type Site, USER_TYPE, type User } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders.tsx';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { useSession } from '../../../shared/session/session.ts';
import { installDomStubs, typeInto, waitFor } from '../../../shared/testing/dom.ts';
import { SiteForm } from '../edit/SiteEditPage.tsx';
import { SITES_LOCALES } from '../locales/bundle.ts';

const SITE: Site = {
  id: 7,
  user_id: 2,
  group_id: null,
  line_group_id: null,
  name: 'shop',
  cname: 's7.cdn.example.net',
  cname_state: 'ready',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  domains: ['shop.example.com'],
  origins: [{ address: '10.0.0.1', port: 80, weight: 1, backup: false }],
  balance: 'round_robin',
  origin_protocol: 'http',
  origin_host: '',
  http_listen: true,
  https_listen: false,
  cert_id: null,
  force_https: false,
  hsts: false,
  http2: false,
  websocket: false,
  gzip: true,
  request_headers: [],
  response_headers: [],
  cache_rules: [],
  enabled: true,
  hotlink: DEFAULT_SITE_HOTLINK,
};

const CUSTOMER: User = {
  id: 2,
  account: 'carol',
  username: 'carol',
  name: '',
  email: '',
  phone: '',
  qq: '',
  type: USER_TYPE.user,
  access: [],
  group: null,
  balance: 0,
  status: 'enabled',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

/** The selects measure themselves; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
const refused = (msg: string) =>
  new Response(JSON.stringify({ code: 'invalid_param', msg, data: null }), { status: 400 });

/** Types into a React-controlled text area the way a user would. */
const typeIntoArea = (area: HTMLTextAreaElement, value: string): void => {
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(area, value);
  area.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('the hotlink section of the site edit page', () => {
  let root: Root | undefined;
  beforeEach(() => {
    installDomStubs();
    vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? StillObserver);
  });
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    useSession.getState().clear();
    vi.unstubAllGlobals();
  });

  /** The edit form; each PUT is recorded and answered by `answerPut`. */
  const open = (answerPut: (body: Record<string, unknown>) => Response, site: Site = SITE) => {
    useSession.setState({ user: CUSTOMER });
    const puts: Record<string, unknown>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const path = new URL(url, 'http://x').pathname;
        if (init.method === 'PUT' && path === '/v1/sites/7') {
          const body = JSON.parse(String(init.body)) as Record<string, unknown>;
          puts.push(body);
          return answerPut(body);
        }
        if (path === '/v1/site-groups' || path === '/v1/certs') return ok({ list: [], total: 0 });
        throw new Error(`unexpected ${init.method} ${url}`);
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US', [SITES_LOCALES])} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <MemoryRouter>
            <SiteForm site={site} />
          </MemoryRouter>
        </QueryClientProvider>
      </AppProviders>,
    );
    return { container, puts };
  };

  const section = (container: ParentNode) => waitFor(() => container.querySelector('[data-testid="hotlink-section"]'));
  const field = <T extends Element>(container: ParentNode, id: string) =>
    waitFor(() => container.querySelector<T>(`#hotlink_${id}`));
  /** The error antd shows under the field whose control has `id`. */
  const errorAt = (container: ParentNode, id: string) =>
    container.querySelector(`#hotlink_${id}`)?.closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')
      ?.textContent;
  const save = (container: ParentNode) =>
    container.querySelector<HTMLButtonElement>('[data-testid="site-save"]')?.click();
  const chooseRedirect = async (container: ParentNode) => {
    const redirect = await waitFor(() =>
      container.querySelector<HTMLInputElement>('input[type="radio"][value="redirect"]'),
    );
    redirect.click();
    return field<HTMLInputElement>(container, 'redirect_url');
  };

  it('sends the whole setting: hosts one per line, lowercased, and the redirect URL', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    (await field<HTMLButtonElement>(container, 'enabled')).click();
    typeIntoArea(await field(container, 'allowText'), 'Partner.example.org\n\n*.friends.example.net');
    typeIntoArea(await field(container, 'denyText'), 'leech.example.com');
    (await field<HTMLButtonElement>(container, 'allow_empty')).click();
    typeInto(await chooseRedirect(container), 'https://img.example.org/no-hotlinking.png');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({
      hotlink: {
        ...DEFAULT_SITE_HOTLINK,
        enabled: true,
        allow: ['partner.example.org', '*.friends.example.net'],
        deny: ['leech.example.com'],
        allow_empty: false,
        action: 'redirect',
        redirect_url: 'https://img.example.org/no-hotlinking.png',
      },
    });
  });

  it('leaves an untouched setting out of the save', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }), { ...SITE, hotlink: undefined });
    await section(container);
    const name = await waitFor(() => container.querySelector<HTMLInputElement>('#name'));
    typeInto(name, 'store');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ name: 'store' });
  });

  it('refuses a host that is not a domain, naming it, and sends nothing', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    typeIntoArea(await field(container, 'allowText'), 'partner.example.org\nhttps://evil.example.com/');
    typeIntoArea(await field(container, 'denyText'), 'partner.example.org');
    save(container);
    await waitFor(() => errorAt(container, 'allowText')?.startsWith('https://evil.example.com/ is not allowed'));
    await waitFor(() => errorAt(container, 'denyText') === 'partner.example.org is also an allowed host');
    expect(puts).toEqual([]);
  });

  it('asks for a redirect URL only when refused requests are redirected', async () => {
    const { container, puts } = open((body) => ok({ ...SITE, ...body }));
    await section(container);
    expect(container.querySelector('#hotlink_redirect_url')).toBeNull();
    await chooseRedirect(container);
    save(container);
    await waitFor(() => errorAt(container, 'redirect_url') === 'A redirect needs a URL');
    typeInto(await field(container, 'redirect_url'), 'ftp://img.example.org/x.png');
    await waitFor(() => errorAt(container, 'redirect_url')?.startsWith('An http:// or https:// URL'));
    expect(puts).toEqual([]);
  });

  it('shows the server’s refusal of a redirect loop at the redirect URL', async () => {
    const loop =
      "hotlink/redirect_url: shop.example.com/x.png is one of this site's .png files, which the protection refuses too: the redirect would loop";
    const { container } = open(() => refused(loop));
    await section(container);
    typeInto(await chooseRedirect(container), 'https://shop.example.com/x.png');
    save(container);
    await waitFor(() => errorAt(container, 'redirect_url')?.endsWith('the redirect would loop'));
  });

  it('shows a refused denied host at the denied hosts box', async () => {
    const { container } = open(() => refused('hotlink/deny/0: *.example.com covers the site’s own domain'));
    await section(container);
    typeIntoArea(await field(container, 'denyText'), '*.example.com');
    save(container);
    await waitFor(() => errorAt(container, 'denyText') === '*.example.com covers the site’s own domain');
  });
});
