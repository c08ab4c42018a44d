/**
 * The tRPC client of the web app: typed by the server's AppRouter (a type-only import), with
 * TanStack Query underneath. Query defaults follow SPEC.md §7.
 */
import type { AppRouter } from '@cubes/api/client';
import { QueryClient } from '@tanstack/react-query';
import { httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import superjson from 'superjson';

export const trpc = createTRPCReact<AppRouter>();

/** No retries, no refetch on focus, data never stale, unused cache kept 5 minutes. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: Number.POSITIVE_INFINITY,
        gcTime: 5 * 60 * 1000,
      },
      mutations: { retry: false },
    },
  });
}

export function createTrpcClient(url = '/trpc') {
  return trpc.createClient({
    links: [
      // Subscriptions (WebSocket at the same /trpc path) join here through a splitLink when they arrive.
      httpBatchLink({
        url,
        transformer: superjson,
        fetch: (input, init) => fetch(input, { ...init, credentials: 'include' }),
      }),
    ],
  });
}

export type AppClientError = TRPCClientError<AppRouter>;

function asServerError(error: unknown): AppClientError | null {
  // `data` is set only when the server answered with a tRPC error body (not on network failures).
  return error instanceof TRPCClientError && error.data ? (error as AppClientError) : null;
}

export function isUnauthorized(error: unknown): boolean {
  return asServerError(error)?.data?.code === 'UNAUTHORIZED';
}

/** The server's human message ('Invalid email or password'), or null when the server did not answer. */
export function serverMessage(error: unknown): string | null {
  const message = asServerError(error)?.message.trim();
  return message ? message : null;
}

/** Validation messages from the server by field name, for showing under form fields. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  const issues = asServerError(error)?.data?.issues ?? [];
  const byField: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.path && !byField[issue.path]) byField[issue.path] = issue.message;
  }
  return byField;
}
