/**
 * 000 §9: data cached 5 minutes, queries retried 3 times with a doubling delay from 1 s up to 30 s,
 * mutations never retried. Client errors (4xx) are answers, not glitches, so they are not retried.
 */
import { keys } from '@refinedev/core';
import { QueryClient } from '@tanstack/react-query';

const FIVE_MINUTES = 5 * 60_000;

function status(error: unknown): number | undefined {
  const e = error as { statusCode?: number; status?: number } | null;
  return e?.statusCode ?? e?.status;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: FIVE_MINUTES,
      gcTime: FIVE_MINUTES,
      refetchOnWindowFocus: false,
      retry: (failures, error) => {
        const code = status(error);
        return !(code && code >= 400 && code < 500) && failures < 3;
      },
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
    },
    mutations: { retry: 0 },
  },
});

// Sign-in state must be re-read on every mount of <Authenticated>; a cached "signed out"
// would bounce a user who has just signed in back to /login.
queryClient.setQueryDefaults(keys().auth().get(), { staleTime: 0 });
