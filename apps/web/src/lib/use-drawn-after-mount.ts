import { useDeferredValue, useState } from 'react';
import { useServerRendered } from './server-rendered';

/**
 * False in the render that mounts the caller, true in a background render React does right after.
 *
 * A query's answer reaches React through TanStack Query's store, and React renders a store's
 * updates in one go, however long they take: a page of cards arriving with its answer was one task
 * of 0.3–0.5 s on a 4×-slowed phone, which Lighthouse counts as blocking time. A list that draws
 * its items only once this is true (its loading state until then) gets them in a background
 * render instead, which React does in short slices, yielding to input between them.
 * bench/README.md, "Lighthouse (bench:web)".
 *
 * True at once on a page the server rendered (lib/server-rendered.tsx): the server drew the items,
 * and the browser's first render must draw the same to hydrate them.
 */
export function useDrawnAfterMount(): boolean {
  const [atOnce] = useState(useServerRendered());
  return useDeferredValue(true, atOnce);
}
