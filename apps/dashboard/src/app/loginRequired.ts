import type { createBrowserRouter } from 'react-router';
import { useSession } from '../shared/session/session.ts';
import { LOGIN_PATH, loginHref, stripBasename } from './navigation.ts';

type AppRouter = Pick<ReturnType<typeof createBrowserRouter>, 'state' | 'navigate'>;

/** A `login_required` answer ends the session and sends the user to login, back here afterwards. */
/** The console's cached data goes with the console, which this navigation leaves. */
export const createLoginRequiredHandler = (router: AppRouter) => () => {
  useSession.getState().clear();
  const { pathname, search } = router.state.location;
  const path = stripBasename(pathname);
  if (!path.startsWith(LOGIN_PATH)) void router.navigate(loginHref(`${path}${search}`), { replace: true });
};
