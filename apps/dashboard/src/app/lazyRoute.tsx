import type { ComponentType } from 'react';
import { logError } from '../shared/log/frontLog.ts';
import { withChunkTimeout } from './chunkTimeout.ts';
import { ErrorNotice } from './ErrorNotice.tsx';

export interface PageModule {
  Component: ComponentType;
}

const ChunkLoadFailed = () => <ErrorNotice chunk />;

/**
 * A route's `lazy` that never rejects: a chunk that fails or times out becomes a page showing the
 * error with a retry, and the error goes to the front-end log. (React Router keeps treating a route
 * whose `lazy` rejected as still loading and renders nothing below its parent.)
 */
export const lazyRoute = (load: () => Promise<PageModule>) => (): Promise<PageModule> =>
  withChunkTimeout(load)().catch((error: unknown) => {
    logError(error);
    return { Component: ChunkLoadFailed };
  });
