/**
 * A page's loader: it starts the page's first queries beside the page's code, not after the page
 * has rendered (issue #47). Each page module in this folder may export one as `loader`; app.tsx
 * runs it when a path lands on the page (the first visit and every navigation), as soon as the
 * page's chunk has arrived and before React renders the page, and the page's components then find
 * their data in the TanStack Query cache, under the same keys (each feature's queries.ts builds
 * both the hooks and the prefetches, so the keys cannot drift apart).
 *
 * A loader only fills the cache: it takes tRPC's query helpers over a QueryClient, the route's
 * params and the URL's query, and returns when its queries have settled. It never throws (a
 * failed prefetch leaves the query in its error state, which the page shows and retries). On the
 * client the helpers are `trpc.useUtils()`; a server rendering the same page (issue #48) hands in
 * `createTRPCQueryUtils({ queryClient, client })` over a client whose link calls the router in
 * process (tRPC's `unstable_localLink`), awaits the loader and dehydrates the QueryClient.
 */
import type { AppRouter } from '@cubes/api/client';
import type { createTRPCQueryUtils } from '@trpc/react-query';
import type { Params } from 'react-router-dom';

/** tRPC's query helpers (prefetch, prefetchInfinite, ensureData, …) over one QueryClient. */
export type QueryUtils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;

export interface LoaderArgs {
  utils: QueryUtils;
  /** The route's params (`username` of /profile/:username). */
  params: Params;
  /** The URL's query (`q` of /search?q=). */
  search: URLSearchParams;
  /**
   * The server took the request for a member's (it carried a session cookie, and the page is a
   * member's shell): their data may be asked for before the session has answered.
   */
  member?: boolean;
}

export type PageLoader = (args: LoaderArgs) => Promise<void>;

/** The member a page's loader runs for. */
export type LoaderSession = NonNullable<ReturnType<QueryUtils['auth']['session']['getData']>>;

/**
 * A member's page's loader: `load` runs once the session is known (the server's render of a
 * member's page, or the app's cache); for a visitor, or before the session has answered, nothing
 * is asked (the page asks a visitor to log in, and its own queries start with the session).
 */
export function memberLoader(load: (args: LoaderArgs, session: LoaderSession) => Promise<void>): PageLoader {
  return async (args) => {
    const session = args.utils.auth.session.getData();
    if (session) await load(args, session);
  };
}
