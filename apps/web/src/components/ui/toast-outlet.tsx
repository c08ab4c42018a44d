/**
 * Where toasts appear: Radix Toast (toaster.tsx) loads with the first toast raised, not with the
 * first page; until then the toast store (use-toast.ts) keeps what is raised. Once loaded it stays
 * mounted, so later toasts open and close with their animations.
 */
import { lazy, Suspense, useRef } from 'react';
import { useToast } from './use-toast';

const Toaster = lazy(() => import('./toaster').then((module) => ({ default: module.Toaster })));

export function ToastOutlet() {
  const { toasts } = useToast();
  const needed = useRef(false);
  if (toasts.length > 0) needed.current = true;
  if (!needed.current) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
