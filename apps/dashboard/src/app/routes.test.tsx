// @vitest-environment jsdom

import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useSession } from '../shared/session/session.ts';
import { waitFor } from '../shared/testing/dom.ts';
import { ROUTER_BASENAME } from './basePath.ts';
import { appRoutes } from './routes.tsx';

const visit = async (path: string) => {
  const router = createMemoryRouter(appRoutes, { basename: ROUTER_BASENAME, initialEntries: [`/dashboard${path}`] });
  await waitFor(() => router.state.initialized && router.state.navigation.state === 'idle');
  const { pathname, search } = router.state.location;
  router.dispose();
  return `${pathname}${search}`;
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
});
