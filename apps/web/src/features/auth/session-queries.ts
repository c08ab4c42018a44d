/**
 * The session's queries (auth-provider.tsx keeps the state built on them): auth.session (null for
 * a visitor) and logout, with the session's cache edits: a sign-in puts its answer there and reads
 * everything else again (what a visitor was shown may differ for a member); a changed profile
 * replaces the session's user; forgetting the session drops it and resets the rest. They are in
 * the first page, with the provider; the forms' requests, loaded with /auth, are in queries.ts.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { matchQuery, type Query, type QueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { trpc } from '../../lib/trpc';

export type Session = RouterOutputs['auth']['me'];
export type SessionUser = Session['user'];

// The query's own key (the helpers' setData writes there); as a filter it matches just the session.
const sessionKey = () => getQueryKey(trpc.auth.session, undefined, 'query');
const isSessionQuery = (query: Query) => matchQuery({ queryKey: sessionKey() }, query);
const notSession = { predicate: (query: Query) => !isSessionQuery(query) };

/** The session, asked while `enabled` (after a logout the answer is known without asking). */
export function useSessionQuery(enabled: boolean) {
  return trpc.auth.session.useQuery(undefined, { enabled });
}

export function useLogoutMutation() {
  return trpc.auth.logout.useMutation();
}

/** Puts a sign-in's session into the cache (under the key of the query above). */
export const setSession = (queryClient: QueryClient, session: Session) =>
  queryClient.setQueryData(sessionKey(), session);

/** Puts a changed profile (a settings answer's `user`) into the session, keeping the rest. */
export const setSessionUser = (queryClient: QueryClient, user: SessionUser) =>
  queryClient.setQueryData<Session | null>(sessionKey(), (session) => session && { ...session, user });

/** After a sign-in: everything but the session is read again. */
export const refreshAfterSignIn = (queryClient: QueryClient) => queryClient.invalidateQueries(notSession);

/** Back online: the active queries (but the session) that failed meanwhile are asked again. */
export const refetchFailed = (queryClient: QueryClient) =>
  queryClient.refetchQueries({
    type: 'active',
    predicate: (q) => !isSessionQuery(q) && q.state.status === 'error',
  });

/** The session is over: it is dropped from the cache. */
export const dropSession = (queryClient: QueryClient) =>
  queryClient.removeQueries({ queryKey: sessionKey() });

/** …and everything else goes back to its initial state. */
export const resetAfterSession = (queryClient: QueryClient) => queryClient.resetQueries(notSession);
