import { QueryClient } from '@tanstack/react-query';

/** Failures already reach the user through the HTTP client's popup; retrying would repeat it. */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });

/** The console's client: its module loads with the console, so the sign-in pages do without TanStack Query. */
export const consoleQueryClient = createQueryClient();
