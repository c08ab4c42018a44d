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
import { trackedFetch } from './connectivity';
import { errorText } from './error-text';

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

/**
 * The close code of a server that is shutting down (WebSocket's 1012 "Service Restart"): the
 * other instances are still up, so the socket reconnects at once, without back-off.
 */
export const CLOSE_SERVICE_RESTART = 1012;

/** Fast attempts after a restart close before the usual back-off takes over. */
export const RESTART_FAST_ATTEMPTS = 10;
export const RESTART_RETRY_MS = 100;

/**
 * Reconnects at once the first time, then backs off to 30 s. After the server said it is
 * restarting, each of the first RESTART_FAST_ATTEMPTS attempts waits at most RESTART_RETRY_MS
 * (the proxy may still send one to the instance that is going away).
 */
export function liveRetryDelayMs(attempt: number, serverRestarting = false): number {
  if (attempt === 0) return 0;
  if (serverRestarting && attempt <= RESTART_FAST_ATTEMPTS) return RESTART_RETRY_MS;
  return Math.min(1000 * 2 ** (attempt - 1), 30_000);
}

/**
 * Queries and mutations go over HTTP (batched); subscriptions over one WebSocket at the same path,
 * opened when the first subscription starts. When the socket drops, the client reconnects and
 * resends each subscription with the id of the last event it got, so the server sends what was
 * missed. The pages' polling goes on underneath as the fallback while the socket is down. A
 * server shutting down closes with CLOSE_SERVICE_RESTART: the client reconnects at once.
 */
export function createTrpcClient(url = '/trpc') {
  // Set by a restart close (1012), cleared once a socket opens again.
  let serverRestarting = false;
  liveSocket = createWSClient({
    url: () => socketUrl(url),
    lazy: { enabled: true, closeMs: 10_000 },
    retryDelayMs: (attempt) => liveRetryDelayMs(attempt, serverRestarting),
    onOpen: () => {
      serverRestarting = false;
    },
    onClose: (cause) => {
      if (cause?.code === CLOSE_SERVICE_RESTART) serverRestarting = true;
    },
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
          fetch: (input, init) => trackedFetch(input, { ...init, credentials: 'include' }),
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
/** The tRPC client the app's provider holds (the browser's over HTTP and the socket; the server's in process). */
export type TrpcClient = ReturnType<typeof trpc.createClient>;

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

/** The stable reason of the server's message ('POST_NOT_FOUND'), when it has one. */
export function serverReason(error: unknown): string | null {
  return asServerError(error)?.data?.reason ?? null;
}

/** Validation messages from the server by field name, in the app's words, for showing under form fields. */
export function serverFieldErrors(error: unknown): Record<string, string> {
  const issues = asServerError(error)?.data?.issues ?? [];
  const byField: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.path && !byField[issue.path]) byField[issue.path] = errorText(issue.message, issue.reason);
  }
  return byField;
}
