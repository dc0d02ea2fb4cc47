// @vitest-environment jsdom
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders.tsx';
import { ROUTER_BASENAME } from '../../../app/basePath.ts';
import { appRoutes } from '../../../app/routes.tsx';
import { forgetLoaded } from '../../../shared/http/useLoaded.ts';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { useSession } from '../../../shared/session/session.ts';
import { buttonByText, inputByLabel, installDomStubs, typeInto, waitFor } from '../../../shared/testing/dom.ts';

type Answer = { status?: number; body: unknown };
const ok = (data: unknown): Answer => ({ body: { code: 0, msg: 'ok', data } });
const ADMIN = { id: 1, account: 'admin', type: 1, access: [], access_token: 't0k', expires_at: '2030-01-01T00:00:00Z' };

/** Renders the app at /dashboard/login?redirect=… with the server's answers scripted per call. */
const renderLogin = async (answers: Record<string, (body: unknown) => Answer>) => {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = `${init.method} ${url.split('?')[0]}`;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body });
      const answer = answers[key]?.(body) ?? ok(null);
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
    }),
  );
  const router = createMemoryRouter(appRoutes, {
    basename: ROUTER_BASENAME,
    initialEntries: ['/dashboard/login?redirect=%2Fsite%2Flist'],
  });
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  // No act(): the test polls the DOM the way a user would wait for it.
  root.render(
    <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  await waitFor(() => container.querySelector('form'));
  return { container, root, router, calls };
};

const submit = async (container: HTMLElement, account: string, password: string) => {
  typeInto(inputByLabel(container, 'Account'), account);
  typeInto(inputByLabel(container, 'Password'), password);
  await waitFor(() => inputByLabel(container, 'Password').value === password);
  buttonByText(container, 'Sign in').click();
};

describe('login page', () => {
  let root: Root | undefined;
  beforeEach(installDomStubs);
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
    useSession.getState().clear();
    forgetLoaded();
  });

  it('checks the login policy, posts only non-empty fields and follows the redirect', async () => {
    const page = await renderLogin({
      'GET /v1/user/login-policy': () => ok({ captcha_required: false }),
      'POST /v1/login': () => ok(ADMIN),
    });
    root = page.root;
    await submit(page.container, 'admin', 'secret1');
    await waitFor(() => page.router.state.location.pathname === '/dashboard/site/list');
    expect(page.calls.map((call) => call.key)).toContain('GET /v1/user/login-policy');
    expect(page.calls.find((call) => call.key === 'POST /v1/login')?.body).toEqual({
      account: 'admin',
      password: 'secret1',
    });
    expect(useSession.getState().token).toBe('t0k');
  });

  it('shows the image captcha when the server asks for one', async () => {
    const page = await renderLogin({
      'GET /v1/user/login-policy': () => ok({ captcha_required: false }),
      'POST /v1/login': () => ({
        status: 400,
        body: { code: 'captcha_required', msg: 'Enter the captcha', data: null },
      }),
      'GET /v1/common/captcha': () => ok({ captcha: 'c1', svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
    });
    root = page.root;
    await submit(page.container, 'admin', 'secret1');
    const image = await waitFor(() => page.container.querySelector<HTMLImageElement>('[data-testid="captcha-image"]'));
    expect(image.src).toMatch(/^data:image\/svg\+xml;/);
    await waitFor(() => document.body.textContent?.includes('Enter the captcha - captcha_required'));
  });

  it('asks for the two-factor code after a right password and sends it as code, without a captcha', async () => {
    let logins = 0;
    const page = await renderLogin({
      'GET /v1/user/login-policy': () => ok({ captcha_required: false, two_factor_required: false }),
      'POST /v1/login': () =>
        ++logins === 1
          ? { status: 400, body: { code: 'two_factor_required', msg: 'code: enter the code', data: null } }
          : ok(ADMIN),
    });
    root = page.root;
    await submit(page.container, 'admin', 'secret1');
    const field = await waitFor(() => {
      try {
        return inputByLabel(page.container, 'Two-factor code');
      } catch {
        return null;
      }
    });
    expect(document.body.textContent).not.toContain('two_factor_required');
    buttonByText(page.container, 'Sign in').click();
    await waitFor(() => page.container.textContent?.includes('Please enter the code from your authenticator app'));
    typeInto(field, ' 123456 ');
    await waitFor(() => field.value === ' 123456 ');
    buttonByText(page.container, 'Sign in').click();
    await waitFor(() => page.router.state.location.pathname === '/dashboard/site/list');
    const bodies = page.calls.filter((call) => call.key === 'POST /v1/login').map((call) => call.body);
    expect(bodies).toEqual([
      { account: 'admin', password: 'secret1' },
      { account: 'admin', password: 'secret1', code: '123456' },
    ]);
  });
});
