import Spin from 'antd/es/spin';
import { Outlet, useMatches } from 'react-router';
import { canVisit } from '../app/access.ts';
import { deepestHandle } from '../app/routeHandle.ts';
import { useSessionCheck } from '../features/auth/useSessionCheck.ts';
import { ForbiddenPage, ServerErrorPage } from '../features/errors/ErrorPages.tsx';
import { useSession } from '../shared/session/session.ts';
import { PlainLayout } from './PlainLayout.tsx';

/** Everything behind login: checks the session, then shows the page or 403 when the user may not see it. */
export const Component = () => {
  const session = useSessionCheck();
  const user = useSession((state) => state.user);
  const gates = deepestHandle(useMatches())?.gates ?? [];
  if (!user) {
    // Without a stored user the page waits for the session; login_required has already redirected.
    return session.isError ? <ServerErrorPage /> : <Spin size="large" fullscreen />;
  }
  return <PlainLayout>{canVisit(user, gates) ? <Outlet /> : <ForbiddenPage />}</PlainLayout>;
};
