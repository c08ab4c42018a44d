import { useDeferredValue } from 'react';

/**
 * False in the render that mounts the caller, true in a background render React does right after.
 *
 * A query's answer reaches React through TanStack Query's store, and React renders a store's
 * updates in one go, however long they take: a page of cards arriving with its answer was one task
 * of 0.3–0.5 s on a 4×-slowed phone, which Lighthouse counts as blocking time. A list that draws
 * its items only once this is true (its loading state until then) gets them in a background
 * render instead, which React does in short slices, yielding to input between them.
 * bench/README.md, "Lighthouse (bench:web)".
 */
export function useDrawnAfterMount(): boolean {
  return useDeferredValue(true, false);
}
