// @vitest-environment jsdom
import {
  ALL_ADMIN_PERMISSIONS,
  type LineGroupView,
  PERMISSIONS,
  type Site,
  USER_TYPE,
  type User,
} from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders.tsx';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { useSession } from '../../../shared/session/session.ts';
import { installDomStubs, waitFor } from '../../../shared/testing/dom.ts';
import { SITES_LOCALES } from '../locales/bundle.ts';
import { SiteForm } from './SiteEditPage.tsx';

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
};

const LINE_GROUP: LineGroupView = {
  id: 4,
  name: 'Asia',
  cname_domain_id: 1,
  host: 'asia',
  fqdn: 'asia.cdn.example.net',
  backup_group_id: null,
  is_default: false,
  records: [],
  node_count: 2,
  publish_error: '',
  published_at: null,
};

type Role = Pick<User, 'type' | 'access'>;
const ROOT: Role = { type: USER_TYPE.admin, access: [...ALL_ADMIN_PERMISSIONS] };
/** Reaches every customer's sites, but not the line groups. */
const SUPPORT: Role = { type: USER_TYPE.admin, access: [PERMISSIONS.adminUser] };
const CUSTOMER: Role = { type: USER_TYPE.user, access: [] };

const user = ({ type, access }: Role): User => ({
  id: 1,
  account: 'carol',
  username: 'carol',
  name: '',
  email: '',
  phone: '',
  qq: '',
  type,
  access,
  group: null,
  balance: 0,
  status: 'enabled',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

/** The select measures itself; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));

describe("a site's line group", () => {
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

  /** The edit form for a user of `role`; each PUT is recorded and answered by `answerPut`. */
  const open = (role: Role, answerPut: (body: Record<string, unknown>) => Response, site: Site = SITE) => {
    useSession.setState({ user: user(role) });
    const puts: Record<string, unknown>[] = [];
    const paths: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const path = new URL(url, 'http://x').pathname;
        paths.push(path);
        if (init.method === 'PUT' && path === '/v1/sites/7') {
          const body = JSON.parse(String(init.body)) as Record<string, unknown>;
          puts.push(body);
          return answerPut(body);
        }
        if (path === '/v1/node-groups') return ok({ list: [LINE_GROUP], total: 1 });
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
    return { container, puts, paths };
  };

  const lineGroupSelect = (container: ParentNode) => container.querySelector('[data-testid="site-line-group"]');

  /** Opens the select and clicks the option whose text is `label`. */
  const pick = async (container: ParentNode, label: string) => {
    const select = await waitFor(() => lineGroupSelect(container));
    const opener = select.querySelector('.ant-select-selector') ?? select;
    opener.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    const option = await waitFor(() =>
      [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find(
        (element) => element.textContent === label,
      ),
    );
    option.click();
  };

  const save = (container: ParentNode) =>
    container.querySelector<HTMLButtonElement>('[data-testid="site-save"]')?.click();

  it('is offered to an administrator, with the groups by name and host, and saved with the site', async () => {
    const { container, puts } = open(ROOT, (body) => ok({ ...SITE, ...body }));
    await pick(container, 'Asia (asia.cdn.example.net)');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ line_group_id: 4 });
  });

  it('shows the site’s line group, and sends null for the default one', async () => {
    const onAsia = { ...SITE, line_group_id: 4 };
    const { container, puts } = open(ROOT, (body) => ok({ ...onAsia, ...body }), onAsia);
    await waitFor(() =>
      lineGroupSelect(container)?.closest('.ant-select')?.textContent?.includes('Asia (asia.cdn.example.net)'),
    );
    await pick(container, 'The default line group');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ line_group_id: null });
  });

  it('shows the server’s refusal at the field', async () => {
    const refusal = 'line_group_id: line group 4 does not exist';
    const { container } = open(
      ROOT,
      () => new Response(JSON.stringify({ code: 'not_found', msg: refusal, data: null }), { status: 404 }),
    );
    await pick(container, 'Asia (asia.cdn.example.net)');
    save(container);
    const item = await waitFor(() => lineGroupSelect(container)?.closest('.ant-form-item'));
    await waitFor(
      () => item.querySelector('.ant-form-item-explain-error')?.textContent === 'line group 4 does not exist',
    );
  });

  it.each([
    ['a user', CUSTOMER],
    ['an admin without admin:node', SUPPORT],
  ])('is absent for %s', async (_who, role) => {
    const { container, paths } = open(role, () => ok(SITE));
    await waitFor(() => container.querySelector('[data-testid="site-save"]'));
    expect(lineGroupSelect(container)).toBeNull();
    expect(paths).not.toContain('/v1/node-groups');
    expect(container.textContent).not.toContain('Line group');
  });
});
