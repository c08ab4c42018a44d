/**
 * Where toasts appear: Radix Toast (toaster.tsx) loads with the first toast raised, not with the
 * first page; until then the toast store (use-toast.ts) keeps what is raised. Once loaded it stays
 * mounted, so later toasts open and close with their animations.
 *
 * The area itself is there from the start (SPEC: F8 focuses the region labelled 'Notifications'):
 * until Radix's viewport replaces it, an empty region of the same name stands in, and F8 focuses
 * it, as Radix's does.
 */
import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { TOAST_HOTKEY, TOAST_REGION_LABEL, useToast } from './use-toast';

const Toaster = lazy(() => import('./toaster').then((module) => ({ default: module.Toaster })));

/** The toast area before Radix's has loaded: no toasts yet, but named and reachable by F8. */
export function EmptyToastRegion() {
  const ref = useRef<HTMLElement>(null);
  const { i18n } = useLingui();
  useEffect(() => {
    // As Radix's viewport listens: on the document, by the key's code.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.code === TOAST_HOTKEY) ref.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    // A named <section> is a `region` landmark, as Radix's viewport wrapper is.
    <section ref={ref} aria-label={i18n._(TOAST_REGION_LABEL)} tabIndex={-1} className="outline-none" />
  );
}

export function ToastOutlet() {
  const { toasts } = useToast();
  const needed = useRef(false);
  if (toasts.length > 0) needed.current = true;
  if (!needed.current) return <EmptyToastRegion />;
  return (
    <Suspense fallback={<EmptyToastRegion />}>
      <Toaster />
    </Suspense>
  );
}
