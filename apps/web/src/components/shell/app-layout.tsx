import { Trans } from '@lingui/react/macro';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LanguageSync } from '../../features/language/language-sync';
import { PushNavigation } from '../../features/push/push-navigation';
import { OfflineBanner } from '../../pwa/offline-banner';
import { ToastOutlet } from '../ui/toast-outlet';
import { Header } from './header';
import { PageLoading } from './page-loading';
import { TabBar } from './tab-bar';

/** Every page: header, the page in <main>, the mobile tab bar and the toast area. */
export function AppLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:start-3"
      >
        <Trans>Skip to content</Trans>
      </a>
      <LanguageSync />
      <Header />
      <OfflineBanner />
      <PushNavigation />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-4 pt-6 pb-24 outline-none sm:px-6 md:pb-12"
      >
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <TabBar />
      <ToastOutlet />
    </div>
  );
}
