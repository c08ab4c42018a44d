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
import { ThemeProvider } from './features/theme/theme-provider';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import HomePage from './routes/home';
import NotFoundPage from './routes/not-found';

// Every page but home loads on first visit: the first paint stays small (zod, for instance, only
// comes with the forms). AppLayout wraps the outlet in Suspense.
const loaders = new Map<unknown, () => Promise<unknown>>();
function page(load: () => Promise<{ default: ComponentType }>) {
  const Page = lazy(load);
  loaders.set(Page, load);
  return Page;
}
const AuthPage = page(() => import('./routes/auth'));
const BookmarksPage = page(() => import('./routes/bookmarks'));
const ChatPage = page(() => import('./routes/chat'));
const CubesPage = page(() => import('./routes/cubes'));
const GalleryPage = page(() => import('./routes/gallery'));
const ModerationPage = page(() => import('./routes/moderation'));
const ProfilePage = page(() => import('./routes/profile'));
const SearchPage = page(() => import('./routes/search'));
const SettingsPage = page(() => import('./routes/settings'));
const TagPage = page(() => import('./routes/tag'));
const UserProfilePage = page(() => import('./routes/user-profile'));

/** Everything but the router, so tests can wrap components in a MemoryRouter instead. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(() => createTrpcClient());
  return (
    <ThemeProvider>
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <TooltipProvider>{children}</TooltipProvider>
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
        <Route path="auth" element={<AuthPage />} />
        <Route path="login" element={<Navigate to="/auth" replace />} />
        <Route path="cubes" element={<CubesPage />} />
        <Route path="search" element={<SearchPage />} />
        <Route path="gallery" element={<GalleryPage />} />
        <Route path="chat" element={<ChatPage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="profile/:username" element={<UserProfilePage />} />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="tags/:tag" element={<TagPage />} />
        <Route path="bookmarks" element={<BookmarksPage />} />
        <Route path="moderation" element={<ModerationPage />} />
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
