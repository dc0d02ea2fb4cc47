import type { QueryClient } from '@tanstack/react-query';
import type { HttpClient } from './client.ts';

/** What a prefetch works with: the console's HTTP client and query cache, and the user's language. */
export interface PrefetchContext {
  http: HttpClient;
  queryClient: QueryClient;
  language: string;
}

/** Asks for a page's first data; features export these, the console picks one by route name. */
export type Prefetch = (context: PrefetchContext) => Promise<void>;
