// @vitest-environment jsdom

import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../shared/i18n/locales/bundle.ts';
import { useSession } from '../shared/session/session.ts';
import { installDomStubs, waitFor } from '../shared/testing/dom.ts';
import { ROUTER_BASENAME } from './basePath.ts';
import { appRoutes } from './routes.tsx';

const visit = async (path: string) => {
  const router = createMemoryRouter(appRoutes, { basename: ROUTER_BASENAME, initialEntries: [`/dashboard${path}`] });
  await waitFor(() => router.state.initialized && router.state.navigation.state === 'idle');
  const { pathname, search } = router.state.location;
  router.dispose();
  return `${pathname}${search}`;
};

/** What the app draws in its first frame at `path`, while the code of the page is still loading. */
const firstFrame = (path: string) => {
  installDomStubs();
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const router = createMemoryRouter(appRoutes, { basename: ROUTER_BASENAME, initialEntries: [`/dashboard${path}`] });
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n(COMMON_LOCALES, 'en-US')}>
        <RouterProvider router={router} />
      </I18nextProvider>,
    ),
  );
  const frame = {
    skeleton: container.querySelector('[data-testid="shell-skeleton"]') !== null,
    loading: container.querySelector('[role="progressbar"]')?.getAttribute('aria-label'),
    text: container.textContent,
  };
  act(() => root.unmount());
  router.dispose();
  return frame;
};

describe('app routes', () => {
  afterEach(() => useSession.getState().clear());

  it('send a visitor without a token to login with the full path', async () => {
    expect(await visit('/site/list')).toBe('/dashboard/login?redirect=%2Fsite%2Flist');
    expect(await visit('/site')).toBe('/dashboard/login?redirect=%2Fsite');
  });

  it('let a signed-in user through and redirect groups to their first page', async () => {
    useSession.getState().setToken('token');
    expect(await visit('/site/list')).toBe('/dashboard/site/list');
    expect(await visit('/site')).toBe('/dashboard/site/list');
  });

  it('keep public pages and unknown paths public', async () => {
    expect(await visit('/register')).toBe('/dashboard/register');
    expect(await visit('/anything/unknown')).toBe('/dashboard/anything/unknown');
  });

  it('draw the console skeleton while a signed-in console page loads', () => {
    useSession.getState().setToken('token');
    expect(firstFrame('/admin-home')).toEqual({ skeleton: true, loading: 'Loading…', text: 'Rampart' });
  });

  it('draw nothing while a public page, or a console page without a token, loads', () => {
    expect(firstFrame('/site/list').text).toBe('');
    useSession.getState().setToken('token');
    expect(firstFrame('/login').text).toBe('');
  });
});
