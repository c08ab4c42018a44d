/**
 * The app: providers (theme, tRPC + TanStack Query, router, session) and the route table of
 * docs/web.md, "Routes and access".
 */
import type { AppRouter } from '@cubes/api/client';
import type { I18n } from '@lingui/core';
import {
  dehydrate,
  hydrate,
  type QueryClient,
  QueryClientProvider,
  useQueryClient,
} from '@tanstack/react-query';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { type ComponentType, lazy, type ReactNode, useLayoutEffect, useMemo, useState } from 'react';
import { BrowserRouter, matchPath, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { AppLayout } from './components/shell/app-layout';
import { AuthProvider } from './features/auth/auth-provider';
import { PostCard } from './features/posts/post-card';
import { PostCardSlot } from './features/posts/post-card-slot';
import { ThemeProvider } from './features/theme/theme-provider';
import { AppI18nProvider } from './lib/i18n-provider';
import { settled } from './lib/lazy-part';
import { ServerRendered, useRenderedFor } from './lib/server-rendered';
import { createQueryClient, createTrpcClient, type TrpcClient, trpc } from './lib/trpc';
import HomePage, { loader as homeLoader } from './routes/home';
import type { PageLoader, QueryUtils } from './routes/loader';
import NotFoundPage from './routes/not-found';
import { LAZY_PAGES } from './routes/pages';

// Every page but home and the 404 page loads on first visit (routes/pages.ts lists them): the
// first paint stays small (zod, for instance, only comes with the forms). AppLayout wraps the
// outlet in Suspense. A page module may export its loader (routes/loader.ts).
type PageModule = { default: ComponentType; loader?: PageLoader };
const modules = import.meta.glob<PageModule>([
  './routes/*.tsx',
  '!./routes/home.tsx',
  '!./routes/not-found.tsx',
  '!./routes/*.test.tsx',
]);
const lazyPages = LAZY_PAGES.map(({ path, module }) => {
  // app.test.ts checks that every module pages.ts names is in routes/.
  const load = modules[`./routes/${module}.tsx`]!;
  // `loaded`: the module, once it has arrived; a render then has it at once (lib/lazy-part.ts:
  // a page the server rendered hydrates in one pass once main.tsx has loaded its chunk).
  const page: { path: string; load: typeof load; Page: ComponentType; loaded?: PageModule } = {
    path,
    load,
    Page: lazy(() => (page.loaded ? settled(page.loaded) : load())),
  };
  return page;
});

/** Everything but the router, so tests can wrap components in a MemoryRouter instead. */
export function AppProviders({
  children,
  ...given
}: {
  children: ReactNode;
  /** The server's render (entry-server.tsx) and a hydrated page (main.tsx) bring their own. */
  queryClient?: QueryClient;
  trpcClient?: TrpcClient;
  /** The server's render brings the i18n of the page's language (lib/i18n.ts, i18nFor). */
  i18n?: I18n;
}) {
  const [queryClient] = useState(() => given.queryClient ?? createQueryClient());
  const [trpcClient] = useState(() => given.trpcClient ?? createTrpcClient());
  return (
    <AppI18nProvider i18n={given.i18n}>
      <ThemeProvider>
        <trpc.Provider client={trpcClient} queryClient={queryClient}>
          <QueryClientProvider client={queryClient}>
            <PostCardSlot.Provider value={PostCard}>{children}</PostCardSlot.Provider>
          </QueryClientProvider>
        </trpc.Provider>
      </ThemeProvider>
    </AppI18nProvider>
  );
}

const routeTable = (
  <Route element={<AppLayout />}>
    <Route
      index
      element={
        <ShellData>
          <HomePage />
        </ShellData>
      }
    />
    <Route path="login" element={<Navigate to="/auth" replace />} />
    {lazyPages.map(({ path, Page }) => (
      <Route
        key={path}
        path={path}
        element={
          <ShellData>
            <Page />
          </ShellData>
        }
      />
    ))}
    <Route path="*" element={<NotFoundPage />} />
  </Route>
);

/**
 * Starts the data of the page the location lands on (loadPageData), on the first render and on
 * each navigation. During render, not in an effect: a navigation renders here before the router
 * renders the page (committed at once or in a transition), and an effect would run only after
 * the page had rendered. Starting twice (Strict Mode) asks for nothing twice: a query that is
 * cached or on its way is not asked again. Not for a page the server rendered with its data (on
 * the server, which ran the loaders before rendering, nor in the browser hydrating it): what it
 * loaded is in the cache, and a query it left failed (a post that is gone) would be asked again
 * mid-render. A member's shell, rendered from no data, has its page's data asked for into a query
 * client of its own (startShellData), which ShellData hands over once the page has hydrated.
 */
function PageData() {
  const utils = trpc.useUtils();
  const { pathname, search } = useLocation();
  const renderedFor = useRenderedFor();
  useMemo(() => {
    if (renderedFor === 'shell') startShellData(utils.client, pathname, search);
    else {
      // A shell's early data is for the shell's own page: gone once the member has left it.
      shellData = null;
      if (renderedFor === null) void loadPageData(utils, pathname, search);
    }
  }, [utils, pathname, search, renderedFor]);
  return null;
}

/**
 * A member's shell's data, asked for while the shell hydrates (PageData), into a query client of
 * its own: in the page's cache, an answer that came mid-hydration would be drawn (see ShellData).
 * ShellData moves it over once the page has hydrated, answered or still on its way. Asked for only
 * then, the data waited for the whole hydration: in Chromium, unthrottled, the member's feed was
 * asked for 0.6 s later (bench/README.md, "Dialogs on demand, ICU on a worker, and no blocking
 * render after hydrating").
 */
let shellData: { url: string; queryClient: QueryClient } | null = null;

function startShellData(client: TrpcClient, pathname: string, search: string) {
  const url = pathname + search;
  // The server's render of the shell asks for nothing.
  if (typeof window === 'undefined' || shellData?.url === url) return;
  const queryClient = createQueryClient();
  shellData = { url, queryClient };
  void loadPageData(createTRPCQueryUtils<AppRouter>({ queryClient, client }), pathname, search, true);
}

/**
 * A member's shell the server drew came without data (skeletons), and the browser's hydrating
 * render must draw it the same. Its page's data reaches the page's cache only once the page has
 * hydrated: an answer that came while it was still hydrating (the language's catalog, the page's
 * chunk and the render's slices come first) would draw the page, unlike the server's HTML, and
 * React would throw the page away (#418). What PageData asked for meanwhile is moved in first, in
 * a layout effect, before the page's own queries start (their effects are passive): an answer
 * is drawn at once, one still on its way is waited for, not asked again. Inside the route's
 * element, so within AppLayout's Suspense boundary: it runs when the page itself has hydrated,
 * not only the layout.
 */
function ShellData({ children }: { children: ReactNode }) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const { pathname, search } = useLocation();
  const shell = useRenderedFor() === 'shell';
  useLayoutEffect(() => {
    if (!shell) return;
    if (shellData?.url === pathname + search) {
      const early = shellData.queryClient;
      shellData = null;
      // Pending queries too: the page's cache takes over their requests.
      hydrate(queryClient, dehydrate(early, { shouldDehydrateQuery: () => true }));
    }
    // Whatever the early load did not ask for (nothing asks twice: a query answered or on its way
    // is not asked again).
    void loadPageData(utils, pathname, search, true);
  }, [utils, queryClient, pathname, search, shell]);
  return children;
}

export function AppRoutes() {
  return (
    <>
      <PageData />
      <Routes>{routeTable}</Routes>
    </>
  );
}

/**
 * The lazy page `pathname` shows, with the route's params (their paths are distinct patterns, so
 * at most one matches; home, the 404 page and the redirect are in the first chunk).
 */
export function pageMatches(pathname: string) {
  return lazyPages.flatMap((page) => {
    const match = matchPath(page.path, pathname);
    return match ? [{ page, params: match.params }] : [];
  });
}

/**
 * Loads the chunk of each lazy page `pathname` lands on and, given the query helpers, runs the
 * page's loader (routes/loader.ts) as soon as the chunk has arrived: React renders the page only
 * after that chunk too, in a later task. A page already loaded runs its loader at once, before
 * this render goes on to the page. `cookies`: the server's render of a member's page hands in the
 * request's (lib/device-cookies.tsx). Settles when the pages' first queries have; never fails (a
 * failed query is the page's to show; a chunk that failed to load, the render asks again).
 */
export async function loadPageData(
  utils: QueryUtils | null,
  pathname: string,
  search = '',
  member = false,
  cookies: Readonly<Record<string, string>> | null = null,
): Promise<void> {
  await Promise.all([
    utils && (pathname === '/' || pathname === '') ? homeLoader(utils, member, cookies) : null,
    ...pageMatches(pathname).map(async ({ page, params }) => {
      page.loaded ??= await page.load();
      if (utils) await page.loaded.loader?.({ utils, params, search: new URLSearchParams(search), member });
    }),
  ]).catch(() => {});
}

/**
 * The app in the browser. `rendered`: a page the server rendered (main.tsx hydrates it), with the
 * query cache it was rendered from and its path and query.
 */
export function App({ rendered }: { rendered?: { queryClient: QueryClient; url: string; shell: boolean } }) {
  const routes = (
    <AuthProvider>
      <AppRoutes />
    </AuthProvider>
  );
  return (
    <AppProviders {...(rendered ? { queryClient: rendered.queryClient } : {})}>
      <BrowserRouter>
        {rendered ? (
          <ServerRendered url={rendered.url} shell={rendered.shell}>
            {routes}
          </ServerRendered>
        ) : (
          routes
        )}
      </BrowserRouter>
    </AppProviders>
  );
}
