/**
 * Access rules (docs/web.md, "Routes and access"): protected pages need a session; /auth is for
 * visitors only.
 */
import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageLoading } from '../../components/shell/page-loading';
import { useAuth } from './auth-provider';

export function SessionLoading() {
  const { t } = useLingui();
  return <PageLoading label={t`Checking your session…`} />;
}

/** Logged-out users go to /auth; nothing is decided while the session check is running. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <SessionLoading />;
  if (status === 'anonymous') return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  return children;
}

/** A logged-in user has no business on /auth: send them home. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === 'loading') return <SessionLoading />;
  if (status === 'authenticated') return <Navigate to="/" replace />;
  return children;
}
