import { DEFAULT_SITE_HOTLINK, PACKAGE_FEATURES, type Site, USER_TYPE, type User } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders.tsx';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { useSession } from '../../../shared/session/session.ts';
import { installDomStubs, waitFor } from '../../../shared/testing/dom.ts';
import { SITES_LOCALES } from '../locales/bundle.ts';
import { SiteForm } from './SiteEditPage.tsx';

/** The edit form rendered against a recorded fetch, for the jsdom tests of its sections. */

export const TEST_SITE: Site = {
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

export const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
export const refused = (msg: string) =>
  new Response(JSON.stringify({ code: 'invalid_param', msg, data: null }), { status: 400 });

/** Types into a React-controlled text area the way a user would. */
export const typeIntoArea = (area: HTMLTextAreaElement, value: string): void => {
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(area, value);
  area.dispatchEvent(new Event('input', { bubbles: true }));
};

/** The control antd names `id` (a form field's path joined with _), once drawn. */
export const control = <T extends Element>(container: ParentNode, id: string) =>
  waitFor(() => container.querySelector<T>(`#${id}`));

/** The error antd shows under the field whose control has `id`. */
export const errorAt = (container: ParentNode, id: string) =>
  container.querySelector(`#${id}`)?.closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')
    ?.textContent;

export const save = (container: ParentNode) =>
  container.querySelector<HTMLButtonElement>('[data-testid="site-save"]')?.click();

/** Mounts and unmounts the edit form; each PUT is recorded and answered by `answerPut`. */
export const siteFormHarness = () => {
  let root: Root | undefined;
  const setUp = () => {
    installDomStubs();
    vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? StillObserver);
  };
  const tearDown = () => {
    root?.unmount();
    document.body.innerHTML = '';
    useSession.getState().clear();
    vi.unstubAllGlobals();
  };
  /** `gets`: answers of other GET calls a section makes, by path. */
  const open = (
    answerPut: (body: Record<string, unknown>) => Response,
    site: Site = TEST_SITE,
    gets: Record<string, unknown> = {},
  ) => {
    useSession.setState({ user: CUSTOMER });
    const puts: Record<string, unknown>[] = [];
    // The page reads what the site's package allows: here nothing limits it.
    const answers: Record<string, unknown> = {
      [`/v1/sites/${site.id}/package-features`]: {
        limited: false,
        user_package_id: null,
        package_name: null,
        features: Object.fromEntries(PACKAGE_FEATURES.map((feature) => [feature, true])),
        in_use: [],
        beyond: [],
      },
      ...gets,
    };
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
        if (init.method === 'GET' && path in answers) return ok(answers[path]);
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
  return { setUp, tearDown, open };
};
