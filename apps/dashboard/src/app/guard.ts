import { type LoaderFunctionArgs, redirect } from 'react-router';
import { useSession } from '../shared/session/session.ts';
import { loginHref, stripBasename } from './navigation.ts';

/** Spec §2: pages behind login need a token; without one, go to login with the full path to return to. */
export const requireAuth = ({ request }: LoaderFunctionArgs) => {
  if (useSession.getState().token) return null;
  const url = new URL(request.url);
  return redirect(loginHref(`${stripBasename(url.pathname)}${url.search}`));
};
