import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { logError } from '../shared/log/frontLog.ts';
import { isChunkLoadError } from './chunkTimeout.ts';
import { ErrorNotice } from './ErrorNotice.tsx';

/** What a route shows when it throws while loading or rendering; the error goes to the front-end log. */
export const RouteErrorBoundary = () => {
  const error = useRouteError();
  useEffect(() => {
    logError(error);
  }, [error]);
  return <ErrorNotice chunk={isChunkLoadError(error)} />;
};
