/**
 * The app: providers (theme, tRPC + TanStack Query, router, session) and the route table of
 * docs/web.md, "Routes and access".
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { AppLayout } from './components/layout/app-layout';
import { TooltipProvider } from './components/ui/tooltip';
import { AuthProvider } from './features/auth/auth-provider';
import { ThemeProvider } from './features/theme/theme-provider';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import HomePage from './routes/home';
import NotFoundPage from './routes/not-found';

// Every page but home loads on first visit: the first paint stays small (zod, for instance, only
// comes with the forms). AppLayout wraps the outlet in Suspense.
const AuthPage = lazy(() => import('./routes/auth'));
const BookmarksPage = lazy(() => import('./routes/bookmarks'));
const ChatPage = lazy(() => import('./routes/chat'));
const CubesPage = lazy(() => import('./routes/cubes'));
const GalleryPage = lazy(() => import('./routes/gallery'));
const ModerationPage = lazy(() => import('./routes/moderation'));
const ProfilePage = lazy(() => import('./routes/profile'));
const SearchPage = lazy(() => import('./routes/search'));
const SettingsPage = lazy(() => import('./routes/settings'));
const TagPage = lazy(() => import('./routes/tag'));
const UserProfilePage = lazy(() => import('./routes/user-profile'));

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
