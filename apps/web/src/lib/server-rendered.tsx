/**
 * Whether the page on screen is the one the server rendered (entry-server.tsx) and the browser
 * hydrated (main.tsx): the server's render and the hydrating one must be the same, so whatever the
 * app defers to a later render in the browser (lib/use-drawn-after-mount.ts) is drawn at once
 * there. Keyed by the location: a page the member navigates to afterwards renders as before.
 */
import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';

const Rendered = createContext<{ url: string; member: boolean } | null>(null);

/** `url`: the path and query the server rendered; `member`: for a member (the shell alone). */
export function ServerRendered({
  url,
  member,
  children,
}: {
  url: string;
  member: boolean;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ url, member }), [url, member]);
  return <Rendered.Provider value={value}>{children}</Rendered.Provider>;
}

/**
 * Whether the page on screen came from the server with its data (a visitor's): what it drew is in
 * the HTML, and the browser's first render must draw the same. A member's shell came without.
 */
export function useServerRendered(): boolean {
  return useRenderedFor() === 'visitor';
}

/** Who the page on screen was rendered for by the server, or null (rendered in the browser). */
export function useRenderedFor(): 'visitor' | 'member' | null {
  const rendered = useContext(Rendered);
  const { pathname, search } = useLocation();
  if (rendered === null || rendered.url !== pathname + search) return null;
  return rendered.member ? 'member' : 'visitor';
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
