/**
 * Session state (docs/web.md, "Routes and access"). The auth.session query (null for a visitor) is the source of truth:
 * loading until it answers, then its `user`, or logged out on 401. A check that could not reach
 * the server (offline, a reload from the service worker's shell) is not a logout: the member this
 * device last knew (last-member.ts) stays, marked `unconfirmed`, and the session is asked again as
 * soon as the browser is back online. Login and register put their response into that cache;
 * logout clears it (and the drafts) and goes home. The query and its cache edits are in
 * session-queries.ts.
 */
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useDeferredValue,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { onReconnect } from '../../lib/connectivity';
import { clearDrafts } from '../../lib/drafts';
import { isUnauthorized, reconnectLive } from '../../lib/trpc';
import { type KnownMember, readLastMember, rememberMember } from './last-member';
import {
  dropSession,
  refetchFailed,
  refreshAfterSignIn,
  resetAfterSession,
  type Session,
  setSession,
  useLogoutMutation,
  useSessionQuery,
} from './session-queries';

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

interface AuthContextValue {
  /** The member: the session's answer, or offline the one this device last knew. */
  user: KnownMember | null;
  /**
   * The session could not be checked (no connection): `user` is the member last known here, not
   * an answer of the server. Writes will fail with "You're offline" until it is checked again.
   */
  unconfirmed: boolean;
  /** the member moderates: the app shows them the way to /moderation */
  isModerator: boolean;
  /** the member's view preferences (content warnings, sensitive media); undefined: both off */
  preferences?: Session['preferences'];
  /** The member's language, from their account (features/language follows it); undefined: none known. */
  language?: Session['language'];
  status: AuthStatus;
  /** Call with a login or register response. */
  signIn: (session: Session) => void;
  /** Ends the session on the server, clears the user and user-specific caches, goes to /. */
  logout: () => Promise<void>;
  /** The same, for a session the server already ended (the account was deleted). */
  forgetSession: () => void;
  isLoggingOut: boolean;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // After logout we know the answer without asking: keep auth.session switched off until the next sign-in.
  const [loggedOut, setLoggedOut] = useState(false);

  const me = useSessionQuery(!loggedOut);
  const { mutateAsync: logoutRequest, isPending: isLoggingOut } = useLogoutMutation();
  // Read once: what this device knew before this page asked.
  const [lastMember, setLastMember] = useState(readLastMember);

  useEffect(() => {
    if (me.error && !isUnauthorized(me.error)) console.error('Could not check the current session', me.error);
  }, [me.error]);

  // Every answer (and a 401) updates what this device remembers; a network failure does not.
  const answered = me.data !== undefined;
  const unauthorized = me.error != null && isUnauthorized(me.error);
  useEffect(() => {
    if (answered || unauthorized) {
      const session = unauthorized ? null : (me.data ?? null);
      rememberMember(session);
      setLastMember(session && readLastMember());
    }
  }, [answered, unauthorized, me.data]);

  // Back online (lib/connectivity): ask for the session again at once (TanStack Query's own reconnect refetch skips
  // a query it never saw go offline, such as one that failed on a page opened offline), and
  // whatever else failed meanwhile.
  const refetchSession = me.refetch;
  useEffect(() => {
    if (loggedOut) return;
    return onReconnect(() => {
      void refetchSession();
      void refetchFailed(queryClient);
    });
  }, [loggedOut, refetchSession, queryClient]);

  const signIn = useCallback(
    (session: Session) => {
      setSession(queryClient, session);
      // Another member on this device: what the last one was writing is not theirs. Read from the
      // device, not from state: a sign-in that changed with what the device remembers would change
      // the context's value once a session answers, and every reader of it (each post card's
      // buttons) would render again, in one task (0.5 s on a 4×-slowed phone, a member's rendered
      // home).
      const known = readLastMember();
      if (known && known.user.id !== session.user.id) clearDrafts();
      setLoggedOut(false);
      reconnectLive();
      // Anything fetched as a visitor (likes, favourites) may differ for this user.
      void refreshAfterSignIn(queryClient);
    },
    [queryClient],
  );

  const forgetSession = useCallback(() => {
    rememberMember(null);
    setLastMember(null);
    clearDrafts();
    dropSession(queryClient);
    reconnectLive();
    // One transition with the router's own: the page under a protected route must not render the
    // logged-out state first, or its guard would redirect to /auth instead of home.
    startTransition(() => {
      setLoggedOut(true);
      navigate('/');
    });
    void resetAfterSession(queryClient);
  }, [queryClient, navigate]);

  const logout = useCallback(async () => {
    try {
      await logoutRequest();
    } catch (error) {
      // Still clear the session locally: the user asked to leave.
      console.error('Logout request failed', error);
    }
    forgetSession();
  }, [logoutRequest, forgetSession]);

  // Not answered, not refused: the server could not be reached. Keep the member last known here.
  const unconfirmed = !loggedOut && !answered && me.error != null && !unauthorized && lastMember !== null;
  const session = loggedOut ? null : answered ? me.data : unconfirmed ? lastMember : null;
  const user: KnownMember | null = session?.user ?? null;
  const isModerator = user !== null && session?.isModerator === true;
  const preferences = user && !loggedOut ? me.data?.preferences : undefined;
  const language = user && !loggedOut ? me.data?.language : undefined;
  const status: AuthStatus = user ? 'authenticated' : !loggedOut && me.isPending ? 'loading' : 'anonymous';

  const value = useMemo(
    () => ({
      user,
      unconfirmed,
      isModerator,
      preferences,
      language,
      status,
      signIn,
      logout,
      forgetSession,
      isLoggingOut,
    }),
    [
      user,
      unconfirmed,
      isModerator,
      preferences,
      language,
      status,
      signIn,
      logout,
      forgetSession,
      isLoggingOut,
    ],
  );
  // The first answer redraws most of the app (a member's header, tabs, composer, side column). It
  // reaches React through TanStack Query's store, whose updates React renders in one go: 0.5 s on
  // a 4×-slowed phone. Leaving 'loading' goes through a background render instead, which React does
  // in short slices; every later change (a sign-in, a logout) is passed on at once.
  // bench/README.md, "Lighthouse (bench:web)".
  const deferred = useDeferredValue(value);
  const provided = deferred.status === 'loading' ? deferred : value;
  return <AuthContext.Provider value={provided}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
