import type { QueryClient } from '@tanstack/react-query';
import type { createBrowserRouter } from 'react-router';
import { useSession } from '../shared/session/session.ts';
import { LOGIN_PATH, loginHref, stripBasename } from './navigation.ts';

type AppRouter = Pick<ReturnType<typeof createBrowserRouter>, 'state' | 'navigate'>;

/** A `login_required` answer ends the session and sends the user to login, back here afterwards. */
export const createLoginRequiredHandler = (router: AppRouter, queryClient: QueryClient) => () => {
  useSession.getState().clear();
  queryClient.clear();
  const { pathname, search } = router.state.location;
  const path = stripBasename(pathname);
  if (!path.startsWith(LOGIN_PATH)) void router.navigate(loginHref(`${path}${search}`), { replace: true });
};
