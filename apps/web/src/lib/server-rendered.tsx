/**
 * Whether the page on screen is the one the server rendered (entry-server.tsx) and the browser
 * hydrated (main.tsx): the server's render and the hydrating one must be the same, so whatever the
 * app defers to a later render in the browser (lib/use-drawn-after-mount.ts) is drawn at once
 * there. Keyed by the location: a page the member navigates to afterwards renders as before.
 */
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';

const RenderedUrl = createContext<string | null>(null);

/** `url`: the path and query the server rendered. */
export function ServerRendered({ url, children }: { url: string; children: ReactNode }) {
  return <RenderedUrl.Provider value={url}>{children}</RenderedUrl.Provider>;
}

export function useServerRendered(): boolean {
  const url = useContext(RenderedUrl);
  const { pathname, search } = useLocation();
  return url !== null && url === pathname + search;
}

const noSubscription = () => () => {};

/**
 * False on the server and in the render that hydrates its HTML, true from then on (and at once in
 * a page rendered in the browser alone): for what only the browser knows (this device's stored
 * choices), shown after hydration so the hydrating render matches the server's.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
