// @vitest-environment jsdom
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useSession } from '../shared/session/session.ts';
import { waitFor } from '../shared/testing/dom.ts';
import { ROUTER_BASENAME } from './basePath.ts';
import { createLoginRequiredHandler } from './loginRequired.ts';

describe('login_required handler', () => {
  it('clears the session and goes to login remembering the current page', async () => {
    useSession.getState().setToken('stale');
    const router = createMemoryRouter([{ path: '*', element: null }], {
      basename: ROUTER_BASENAME,
      initialEntries: ['/dashboard/site/list?page=2'],
    });
    await waitFor(() => router.state.initialized);
    createLoginRequiredHandler(router)();
    await waitFor(() => router.state.location.pathname === '/dashboard/login');
    expect(router.state.location.search).toBe('?redirect=%2Fsite%2Flist%3Fpage%3D2');
    expect(useSession.getState().token).toBeNull();
    router.dispose();
  });
});
