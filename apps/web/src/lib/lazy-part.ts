/**
 * A component whose code comes on demand (React's `lazy`) and which a page rendered on the server
 * loads before it hydrates.
 *
 * The server's render waits for every lazy part it draws. The browser's hydrating render met the
 * same part with its code still on the way: React left the server's HTML there and hydrated it
 * once the code had come, and a press on it meanwhile was lost (React hydrates a part at once for a
 * press only when its code is there). So the server notes the parts it drew (`PartsDrawn`,
 * entry-server.tsx, into the page's rendered state), main.tsx loads them before `hydrateRoot`, and
 * a part whose code is in renders in the same pass: `lazy` is handed a thenable that is already
 * settled, which it reads at once. The page then hydrates in one pass.
 */
import { type ComponentType, createContext, createElement, lazy, useContext } from 'react';

const loaders = new Map<string, () => Promise<unknown>>();

/** On the server: the names of the parts the render drew (entry-server.tsx). */
export const PartsDrawn = createContext<Set<string> | null>(null);

/**
 * A thenable whose callback runs at once. `lazy` reads the module from it within the render that
 * asked, where a settled Promise would still suspend until its callbacks run.
 */
export function settled<T>(value: T): Promise<T> {
  // biome-ignore lint/suspicious/noThenProperty: a thenable is the point; only `lazy` reads it.
  return { then: (resolve: (value: T) => unknown) => resolve(value) } as unknown as Promise<T>;
}

/** `name` is the part's key in the rendered state: unique, and the same on server and browser. */
export function lazyPart<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
    }));
  loaders.set(name, preload);
  const Lazy = lazy(() =>
    loaded ? settled({ default: loaded }) : preload().then(() => ({ default: loaded as ComponentType<P> })),
  );
  return function LazyPart(props: P) {
    useContext(PartsDrawn)?.add(name);
    return createElement(Lazy, props);
  };
}

/**
 * Loads the parts the server drew (main.tsx, before hydrating): those of modules already loaded.
 * A part that fails to load hydrates later, as before, when React asks for it again.
 */
export function loadParts(names: readonly string[]): Promise<unknown> {
  return Promise.allSettled(names.map((name) => loaders.get(name)?.()));
}
