import './layout.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, memo, Suspense, useEffect } from 'react';
import { ROUTE_LOCALES } from '../app/locales/bundle.ts';
import { consoleQueryClient } from '../app/queryClient.ts';
import { useSessionCheck } from '../features/auth/useSessionCheck.ts';
import { AntdScope } from '../shared/antd/AntdScope.tsx';
import { useLocales } from '../shared/i18n/useLocales.ts';
import { useSession } from '../shared/session/session.ts';
import { LAYOUT_LOCALES } from './locales/bundle.ts';
import { Shell } from './shell/Shell.tsx';
import { ShellSkeleton } from './shell/ShellSkeleton.tsx';

const ServerErrorPage = lazy(async () => ({
  default: (await import('../features/errors/ErrorPages.tsx')).ServerErrorPage,
}));

/** Everything behind login: the console's query client around the session check and the chrome. */
export const Component = () => {
  useLocales(LAYOUT_LOCALES, ROUTE_LOCALES);
  // Leaving the console (logout, login_required) leaves no cached data for the next user.
  useEffect(() => () => consoleQueryClient.clear(), []);
  return (
    <QueryClientProvider client={consoleQueryClient}>
      <Console />
    </QueryClientProvider>
  );
};

/**
 * Checks the session, then shows the console chrome around the page. Memoized: the router renders
 * its routes again when a navigation starts, and the chrome has nothing to change until it ends.
 */
const Console = memo(() => {
  const session = useSessionCheck();
  const user = useSession((state) => state.user);
  return (
    <AntdScope>
      {user ? (
        <Shell user={user} />
      ) : session.isError ? (
        <Suspense fallback={null}>
          <ServerErrorPage />
        </Suspense>
      ) : (
        // Without a stored user (a sign-in in another tab) until the answer brings one; login_required
        // has already gone to the login page.
        <ShellSkeleton />
      )}
    </AntdScope>
  );
});
