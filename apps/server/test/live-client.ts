/**
 * A real tRPC client over a real WebSocket (the `ws` package: Node 20 has no global WebSocket),
 * sending the session cookie and an Origin as a browser would, for the live-feature tests.
 */
import type { AppRouter } from '@cubes/api';
import { createTRPCClient, createWSClient, type TRPCClient, wsLink } from '@trpc/client';
import superjson from 'superjson';
import WebSocket from 'ws';

export interface LiveClient {
  client: TRPCClient<AppRouter>;
  /** close codes of the socket, in order (4401: session ended) */
  closes: number[];
  /** Resolves once the socket has closed with `code` (at once if it already has). */
  closedWith: (code: number) => Promise<void>;
  opens: () => number;
  close: () => Promise<void>;
}

/**
 * `baseUrl` may be a list of instances: each (re)connection goes to the next one, as a client
 * behind a load balancer would land on a surviving instance when its own one dies.
 */
export function connectLive(
  baseUrl: string | string[],
  options: { cookie?: string; origin?: string } = {},
): LiveClient {
  const closes: number[] = [];
  const closeWaiters: { code: number; resolve: () => void }[] = [];
  let opens = 0;
  const bases = typeof baseUrl === 'string' ? [baseUrl] : baseUrl;
  let next = 0;
  class BrowserLikeSocket extends WebSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      const headers: Record<string, string> = {
        origin: options.origin ?? new URL(url).origin.replace(/^ws/, 'http'),
      };
      if (options.cookie) headers.cookie = options.cookie;
      super(url, protocols, { headers });
      this.on('close', (code) => {
        closes.push(code);
        for (const waiter of closeWaiters.filter((w) => w.code === code)) {
          closeWaiters.splice(closeWaiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      });
      this.on('open', () => {
        opens += 1;
      });
    }
  }
  const wsClient = createWSClient({
    url: () => `${bases[next++ % bases.length]!.replace(/^http/, 'ws')}/trpc`,
    WebSocket: BrowserLikeSocket as unknown as typeof globalThis.WebSocket,
    retryDelayMs: () => 100,
  });
  const client = createTRPCClient<AppRouter>({
    links: [wsLink({ client: wsClient, transformer: superjson })],
  });
  const closedWith = (code: number) =>
    closes.includes(code)
      ? Promise.resolve()
      : new Promise<void>((resolve) => closeWaiters.push({ code, resolve }));
  return { client, closes, closedWith, opens: () => opens, close: () => wsClient.close() };
}

/**
 * The least time a wait here gives its signal, whatever bound the caller passed: a wait ends as
 * soon as its signal comes, so the bound only sets how long a failure takes to show, and at a load
 * average of 10 on two cores what takes 200 ms alone takes seconds.
 */
export const MIN_WAIT_MS = 15_000;

/**
 * Collects a subscription's data; `next()` waits for the next item not yet taken. Pass `start` as
 * the subscription's `onStarted`: `started` resolves once the server has started it, and from
 * then on its listener is on the bus (the bus listens from the call of `subscribe`, and tRPC sends
 * `started` after the procedure's iterator has begun).
 */
export class Events<T> {
  readonly items: T[] = [];
  readonly errors: unknown[] = [];
  private taken = 0;
  private waiters: (() => void)[] = [];
  private markStarted: () => void = () => {};
  readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  start = () => this.markStarted();
  private markEnded: () => void = () => {};
  /** Resolves once the server has ended the subscription (pass `end` as its `onStopped`). */
  readonly ended = new Promise<void>((resolve) => {
    this.markEnded = resolve;
  });

  end = () => this.markEnded();

  push = (item: T) => {
    this.items.push(item);
    for (const wake of this.waiters.splice(0)) wake();
  };

  fail = (error: unknown) => {
    this.errors.push(error);
    for (const wake of this.waiters.splice(0)) wake();
  };

  async next(timeoutMs = MIN_WAIT_MS): Promise<T> {
    const bound = Math.max(timeoutMs, MIN_WAIT_MS);
    const deadline = Date.now() + bound;
    while (this.taken >= this.items.length) {
      if (this.errors.length > 0) throw this.errors[0];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no event within ${bound} ms (have ${this.items.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.items[this.taken++]!;
  }
}

export async function waitFor(
  check: () => boolean,
  timeoutMs = MIN_WAIT_MS,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + Math.max(timeoutMs, MIN_WAIT_MS);
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
