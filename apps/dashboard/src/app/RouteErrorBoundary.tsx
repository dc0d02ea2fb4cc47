import { lazy, Suspense, useEffect } from 'react';
import { useRouteError } from 'react-router';

const ServerError = lazy(async () => ({
  default: (await import('../features/errors/ErrorPages.tsx')).ServerErrorPage,
}));

/** Anything a route throws (a chunk that failed to load, a render error) shows the 500 page. */
export const RouteErrorBoundary = () => {
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Suspense fallback={null}>
      <ServerError />
    </Suspense>
  );
};
