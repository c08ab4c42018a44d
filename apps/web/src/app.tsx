/**
 * The app: providers (theme, tRPC + TanStack Query, router, session) and the route table of
 * docs/web.md, "Routes and access".
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, isValidElement, lazy, type ReactNode, useState } from 'react';
import {
  BrowserRouter,
  createRoutesFromChildren,
  matchRoutes,
  Navigate,
  Route,
  Routes,
} from 'react-router-dom';
import { AppLayout } from './components/layout/app-layout';
import { TooltipProvider } from './components/ui/tooltip';
import { AuthProvider } from './features/auth/auth-provider';
import { PostCard } from './features/posts/post-card';
import { PostCardSlot } from './features/posts/post-card-slot';
import { ThemeProvider } from './features/theme/theme-provider';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import HomePage from './routes/home';
import NotFoundPage from './routes/not-found';
import { LAZY_PAGES } from './routes/pages';

// Every page but home and the 404 page loads on first visit (routes/pages.ts lists them): the
// first paint stays small (zod, for instance, only comes with the forms). AppLayout wraps the
// outlet in Suspense.
type PageModule = { default: ComponentType };
const modules = import.meta.glob<PageModule>([
  './routes/*.tsx',
  '!./routes/home.tsx',
  '!./routes/not-found.tsx',
  '!./routes/*.test.tsx',
]);
const loaders = new Map<unknown, () => Promise<unknown>>();
const lazyPages = LAZY_PAGES.map(({ path, module }) => {
  const load = modules[`./routes/${module}.tsx`];
  if (!load) throw new Error(`routes/pages.ts names ${module}, which has no module in routes/`);
  const Page = lazy(load);
  loaders.set(Page, load);
  return { path, Page };
});

/** Everything but the router, so tests can wrap components in a MemoryRouter instead. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(() => createTrpcClient());
  return (
    <ThemeProvider>
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <TooltipProvider>
            <PostCardSlot.Provider value={PostCard}>{children}</PostCardSlot.Provider>
          </TooltipProvider>
        </QueryClientProvider>
      </trpc.Provider>
    </ThemeProvider>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<HomePage />} />
        <Route path="login" element={<Navigate to="/auth" replace />} />
        {lazyPages.map(({ path, Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

/** The loaders of the lazy pages `pathname` shows, found in the route table above. */
export function pageLoaders(pathname: string): (() => Promise<unknown>)[] {
  const routes = createRoutesFromChildren(AppRoutes().props.children);
  return (matchRoutes(routes, pathname) ?? []).flatMap((match) => {
    const element = match.route.element;
    const load = isValidElement(element) ? loaders.get(element.type) : undefined;
    return load ? [load] : [];
  });
}

/**
 * Starts loading the page `pathname` lands on while the app's first render runs: the render
 * reaches the router only after several slices, and on a slow phone the page's chunk was asked
 * for only then (bench/README.md, "Lighthouse (bench:web)").
 */
export function preloadPage(pathname: string): void {
  for (const load of pageLoaders(pathname)) {
    void load().catch(() => {
      // The render asks again, and shows the failure.
    });
  }
}

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AuthProvider>
          <AppRoutes />
        </AuthProvider>
      </BrowserRouter>
    </AppProviders>
  );
}
