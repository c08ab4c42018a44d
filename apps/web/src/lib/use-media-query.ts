/**
 * Whether a CSS media query matches, kept up to date as it changes (the window is resized, the
 * reduced-motion setting is switched). Where the browser has no `matchMedia` (older test
 * environments) the hook answers `fallback`.
 *
 * `fallback` is also the server's answer, so a render that hydrates its HTML answers it too, and
 * React renders the caller again at once, in one go, when the screen's answer differs. A caller
 * that draws something large from the answer passes `live` false until it has hydrated
 * (lib/server-rendered.tsx, useHydrated): the hook answers `fallback` until then, and the screen's
 * answer comes in the render that `live` turns true in, a background one.
 */
import { useCallback, useSyncExternalStore } from 'react';

export function useMediaQuery(query: string, fallback = false, live = true): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => (live && typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback),
    () => fallback,
  );
}
