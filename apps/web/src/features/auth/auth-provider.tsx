/**
 * Session state (docs/web.md, "Routes and access"). The auth.session query (null for a visitor) is the source of truth:
 * loading until it answers, then its `user`, or logged out on 401 (other failures are only logged).
 * Login and register put their response into that cache; logout clears it and goes home.
 */
import type { RouterOutputs } from '@cubes/api/client';
import { matchQuery, type Query, useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
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
import { isUnauthorized, reconnectLive, trpc } from '../../lib/trpc';

export type Session = RouterOutputs['auth']['me'];
export type SessionUser = Session['user'];
export type AuthStatus = 'loading' | 'authenticated' | 'anonymous';

interface AuthContextValue {
  user: SessionUser | null;
  /** the member moderates: the app shows them the way to /moderation */
  isModerator: boolean;
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

const meKey = () => getQueryKey(trpc.auth.session);

function isMeQuery(query: Query): boolean {
  return matchQuery({ queryKey: meKey() }, query);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // After logout we know the answer without asking: keep auth.session switched off until the next sign-in.
  const [loggedOut, setLoggedOut] = useState(false);

  const me = trpc.auth.session.useQuery(undefined, { enabled: !loggedOut });
  const { mutateAsync: logoutRequest, isPending: isLoggingOut } = trpc.auth.logout.useMutation();

  useEffect(() => {
    if (me.error && !isUnauthorized(me.error)) console.error('Could not check the current session', me.error);
  }, [me.error]);

  const signIn = useCallback(
    (session: Session) => {
      utils.auth.session.setData(undefined, session);
      setLoggedOut(false);
      reconnectLive();
      // Anything fetched as a visitor (likes, favourites) may differ for this user.
      void queryClient.invalidateQueries({ predicate: (q) => !isMeQuery(q) });
    },
    [utils, queryClient],
  );

  const forgetSession = useCallback(() => {
    queryClient.removeQueries({ queryKey: meKey() });
    reconnectLive();
    // One transition with the router's own: the page under a protected route must not render the
    // logged-out state first, or its guard would redirect to /auth instead of home.
    startTransition(() => {
      setLoggedOut(true);
      navigate('/');
    });
    void queryClient.resetQueries({ predicate: (q) => !isMeQuery(q) });
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

  const user = loggedOut ? null : (me.data?.user ?? null);
  const isModerator = user !== null && me.data?.isModerator === true;
  const status: AuthStatus = user ? 'authenticated' : !loggedOut && me.isPending ? 'loading' : 'anonymous';

  const value = useMemo(
    () => ({ user, isModerator, status, signIn, logout, forgetSession, isLoggingOut }),
    [user, isModerator, status, signIn, logout, forgetSession, isLoggingOut],
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

/** Puts a changed profile (a settings answer's `user`) into the session, keeping the rest. */
export function useSetSessionUser(): (user: SessionUser) => void {
  const utils = trpc.useUtils();
  return useCallback(
    (user: SessionUser) =>
      utils.auth.session.setData(undefined, (session) => session && { ...session, user }),
    [utils],
  );
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
