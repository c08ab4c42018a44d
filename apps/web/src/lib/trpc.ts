/**
 * The tRPC client of the web app: typed by the server's AppRouter (a type-only import), with
 * TanStack Query underneath: no retries, no refetch on focus, data fresh until invalidated.
 */
import type { AppRouter } from '@cubes/api/client';
import { QueryClient } from '@tanstack/react-query';
import {
  createWSClient,
  httpBatchLink,
  splitLink,
  TRPCClientError,
  type TRPCWebSocketClient,
  wsLink,
} from '@trpc/client';
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

/** The page's socket (subscriptions); one per app. */
let liveSocket: TRPCWebSocketClient | null = null;

function socketUrl(path: string): string {
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** Reconnects at once the first time, then backs off to 30 s. */
export function liveRetryDelayMs(attempt: number): number {
  return attempt === 0 ? 0 : Math.min(1000 * 2 ** (attempt - 1), 30_000);
}

/**
 * Queries and mutations go over HTTP (batched); subscriptions over one WebSocket at the same path,
 * opened when the first subscription starts. When the socket drops, the client reconnects and
 * resends each subscription with the id of the last event it got, so the server sends what was
 * missed. The pages' polling goes on underneath as the fallback while the socket is down.
 */
export function createTrpcClient(url = '/trpc') {
  liveSocket = createWSClient({
    url: () => socketUrl(url),
    lazy: { enabled: true, closeMs: 10_000 },
    retryDelayMs: liveRetryDelayMs,
  });
  return trpc.createClient({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: wsLink({ client: liveSocket, transformer: superjson }),
        false: httpBatchLink({
          url,
          // The server refuses a batch of more than 10 calls (MAX_BATCH_CALLS): split larger ones.
          maxItems: 10,
          transformer: superjson,
          fetch: (input, init) => fetch(input, { ...init, credentials: 'include' }),
        }),
      }),
    ],
  });
}

/**
 * After a login or a logout: the socket was opened with the old session cookie, so it reopens
 * with the new one, and its subscriptions start again under the new session.
 */
export function reconnectLive(): void {
  const connection = liveSocket?.connection;
  if (connection && connection.state !== 'closed') connection.ws.close();
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
