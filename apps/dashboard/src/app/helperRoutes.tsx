import { Navigate, type RouteObject, useLocation, useParams } from 'react-router';
import { landingPath, useSession } from '../shared/session/session.ts';
import { safeRedirect } from './navigation.ts';

export const REFRESH_PATH = '/refresh';

/** Where `/refresh` returns to: the page that sent the user there. */
export interface RefreshState {
  from: string;
}

const isRefreshState = (state: unknown): state is RefreshState =>
  typeof state === 'object' && state !== null && 'from' in state && typeof state.from === 'string';

/** `/refresh`: leaves and re-enters the page it came from, replacing itself in the history. */
const Refresh = () => {
  const { state } = useLocation();
  const user = useSession((session) => session.user);
  const from = isRefreshState(state) ? safeRedirect(state.from) : null;
  return <Navigate to={from ?? landingPath(user)} replace />;
};

/** `/redirect/{route}`: goes to `/{route}` with the same query, replacing itself in the history. */
const Redirect = () => {
  const { '*': route = '' } = useParams();
  const { search } = useLocation();
  return <Navigate to={`/${route}${search}`} replace />;
};

const LandingRedirect = () => {
  const user = useSession((state) => state.user);
  return <Navigate to={landingPath(user)} replace />;
};

/** The console's index and its hidden helpers (spec §2: refresh and redirect/{route}). */
export const helperRoutes: RouteObject[] = [
  { index: true, Component: LandingRedirect },
  { path: REFRESH_PATH.slice(1), Component: Refresh },
  { path: 'redirect/*', Component: Redirect },
];
