/**
 * Whether the page on screen is the one the server rendered (entry-server.tsx) and the browser
 * hydrated (main.tsx): the server's render and the hydrating one must be the same, so whatever the
 * app defers to a later render in the browser (lib/use-drawn-after-mount.ts) is drawn at once
 * there. Keyed by the location: a page the member navigates to afterwards renders as before.
 */
import { createContext, type ReactNode, startTransition, useContext, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * 'page': rendered with its data (a visitor's page, a member's own page); 'shell': a member's
 * Moderation, the shell alone (header, tab bar, the session's loading state), from no data.
 */
type RenderedFor = 'page' | 'shell' | null;

const Rendered = createContext<RenderedFor>(null);

/**
 * `url`: the path and query the server rendered; `shell`: the shell alone (a member's
 * Moderation). Inside the router: it compares the location once, for every component below.
 */
export function ServerRendered({
  url,
  shell,
  children,
}: {
  url: string;
  shell: boolean;
  children: ReactNode;
}) {
  const { pathname, search } = useLocation();
  const value: RenderedFor = url !== pathname + search ? null : shell ? 'shell' : 'page';
  return <Rendered.Provider value={value}>{children}</Rendered.Provider>;
}

/**
 * Whether the page on screen came from the server with its data (a visitor's, a member's own): what it drew is in the HTML, and the browser's first render must draw the same. A
 * member's shell came without.
 */
export function useServerRendered(): boolean {
  return useRenderedFor() === 'page';
}

/** Who the page on screen was rendered for by the server, or null (rendered in the browser). */
export function useRenderedFor(): RenderedFor {
  return useContext(Rendered);
}

/**
 * False on the server and in the render that hydrates its HTML, true from then on (and at once in
 * a page rendered in the browser alone): for what only the browser knows (this device's stored
 * choices), shown after hydration so the hydrating render matches the server's.
 *
 * The turn to true is a transition, which React renders in slices. (A store with a server snapshot,
 * as this was, makes React render every component that reads it again in one go right after
 * hydrating: the gallery's whole grid, 70–140 ms of a desktop's main thread in one task.)
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(useRenderedFor() === null);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
