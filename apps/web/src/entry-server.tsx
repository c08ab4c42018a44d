/**
 * The server's way into the app (issue #48): a visitor's page rendered to HTML by the same React
 * tree the browser runs, fed by the same route loaders (routes/loader.ts), with the query cache it
 * was rendered from dehydrated beside it so the browser hydrates without asking again
 * (main.tsx). Built by `vite build --ssr` (vite.config.ts) into dist-ssr/; apps/server's
 * pages/render.ts loads it and hands in a tRPC link that calls the router in process, as the
 * request's reader.
 *
 * The router is react-router's own StaticRouter around the app's <Routes>: the browser keeps its
 * BrowserRouter. Moving the app to a data router (createBrowserRouter, createStaticHandler) would
 * bring its loaders' and fetchers' machinery into a first page with 0.3 KB of its budget left; how
 * much is not measured. The page's `meta` (routes/meta.ts) gives the head: title, description, canonical,
 * Open Graph, Twitter and JSON-LD, from the same cache.
 */
import './lib/csp';
import { Writable } from 'node:stream';
import type { AppRouter, RouterOutputs } from '@cubes/api/client';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@cubes/api/languages';
import type { I18n } from '@lingui/core';
import { dehydrate, QueryClient } from '@tanstack/react-query';
import { unstable_localLink } from '@trpc/client';
import { createTRPCQueryUtils, getQueryKey } from '@trpc/react-query';
import type { inferRouterContext } from '@trpc/server';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import superjson from 'superjson';
import { AppProviders, AppRoutes, loadPageData, pageMatches } from './app';
import { RenderTime } from './components/relative-time';
import { AuthProvider } from './features/auth/auth-provider';
import { FEED_SCOPE_COOKIE } from './features/posts/feed-scope';
import { DeviceCookies } from './lib/device-cookies';
import { documentTitle } from './lib/document-title';
import { i18n as appI18n, i18nFor } from './lib/i18n';
import { PartsDrawn } from './lib/lazy-part';
import { RENDERED_STATE_ID, type RenderedState, renderedJson } from './lib/rendered-state';
import { ServerRendered } from './lib/server-rendered';
import { trpc } from './lib/trpc';
import { DESCRIPTION, type HeadTag, pageHead } from './routes/meta';

export type { HeadTag };
export { RENDERED_STATE_ID };

export type Reader = 'visitor' | 'member' | 'shell';

/** The cookies a member's own page is drawn by: the chosen feed (features/posts/feed-scope.ts). */
export const MEMBER_PAGE_COOKIES = [FEED_SCOPE_COOKIE] as const;

export interface RenderedPage {
  /** 404 when the page's subject does not exist or is hidden from this reader. */
  status: 200 | 404;
  /** The page's <head> tags, described (pages/render.ts writes them, escaped). */
  head: HeadTag[];
  /** The app's HTML, for #root. */
  html: string;
  /** The dehydrated query cache and the render's clock, superjson (main.tsx reads it back). */
  state: string;
}

export interface RenderOptions {
  /** The path and query, as asked (`/posts/abc`, `/search?q=art`). */
  url: string;
  /** The page's absolute origin (PUBLIC_URL or the request's host), for canonical and og:url. */
  origin: string;
  /**
   * The app's router and the request's context (its reader): the page's queries call it in
   * process (tRPC's unstable_localLink, made here so its errors are this bundle's
   * TRPCClientError, which the pages read codes from).
   */
  router: AppRouter;
  createContext: () => Promise<inferRouterContext<AppRouter>>;
  /**
   * Whom for: a visitor (no session: the page and its data); a member (`member`: their home, Chat,
   * profile, bookmarks, notifications, Settings and the public pages, with their data, as the
   * context's session reads them); a member's shell (`shell`: Moderation, the header, tab bar
   * and the session's loading state, from no data at all: the browser asks for the session and
   * the page as before, and nothing of the member is in the HTML).
   */
  reader?: Reader;
  /** A member's page: the request's cookies it is drawn by (MEMBER_PAGE_COOKIES), and no other. */
  cookies?: Readonly<Record<string, string>>;
  /** The page's language (@cubes/api/languages' choice for the request); English when left out. */
  language?: Language;
}

/**
 * Renders `url`. For a visitor and a member's own page, the session (none, or the member's) and
 * the page's data are loaded first; for a member's shell, nothing.
 */
export async function render({
  url,
  origin,
  router,
  createContext,
  reader = 'visitor',
  cookies = {},
  language = DEFAULT_LANGUAGE,
}: RenderOptions): Promise<RenderedPage> {
  const shell = reader === 'shell';
  const member = reader === 'member';
  const { pathname, search } = new URL(url, 'http://render.invalid');
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  const client = trpc.createClient({
    links: [unstable_localLink({ router, createContext, transformer: superjson })],
  });
  const utils = createTRPCQueryUtils<AppRouter>({ queryClient, client });
  const i18n = await i18nFor(language);
  if (!shell) await utils.auth.session.prefetch();
  // A member's shell: its code only (its loading state is what renders).
  await loadPageData(shell ? null : utils, pathname, search, member, member ? cookies : null);
  if (member) withoutHiddenEmail(queryClient);
  const renderedAt = Date.now();
  // A public page's head, and whether its subject is there for this reader (a post hidden from a
  // member by a block is a 404 for them, as for /api).
  const publicHead =
    !shell && rendersOnServer(pathname, 'visitor')
      ? pageHead({ utils, pathname, search: new URLSearchParams(search), origin, i18n })
      : null;
  // A member's page has its title and no preview: it is theirs alone.
  const head =
    reader === 'visitor' && publicHead
      ? publicHead
      : {
          found: publicHead?.found ?? true,
          tags: [
            publicHead?.tags.find((tag) => tag.tag === 'title') ?? {
              tag: 'title' as const,
              text: documentTitle(),
            },
            { tag: 'meta' as const, name: 'description', content: DESCRIPTION },
          ],
        };
  if (reader === 'visitor' && head.found)
    head.tags = languageAlternates(head.tags, language, new URLSearchParams(search).get('lang') === language);

  const parts = new Set<string>();
  const html = await withAppLanguage(i18n, () =>
    renderToString(
      <StrictMode>
        <RenderTime value={renderedAt}>
          <AppProviders queryClient={queryClient} trpcClient={client} i18n={i18n}>
            <PartsDrawn.Provider value={parts}>
              <StaticRouter location={url}>
                <ServerRendered url={url} shell={shell}>
                  <DeviceCookies value={member ? cookies : null}>
                    <AuthProvider>
                      <AppRoutes />
                    </AuthProvider>
                  </DeviceCookies>
                </ServerRendered>
              </StaticRouter>
            </PartsDrawn.Provider>
          </AppProviders>
        </RenderTime>
      </StrictMode>,
    ),
  );
  const state = renderedJson.stringify({
    url,
    // Errors too: a post that is gone hydrates as gone (lib/rendered-state.ts).
    queries: dehydrate(queryClient, { shouldDehydrateQuery: (query) => query.state.status !== 'pending' }),
    renderedAt,
    shell,
    parts: [...parts],
  } satisfies RenderedState);
  return { status: head.found ? 200 : 404, head: head.tags, html, state };
}

/**
 * The member's address as their page carries it: only if they show it on their profile
 * (userSchema's rule for everyone else), in their session, their own profile's answer
 * (users.byUsername answers a member their own address) and Settings' (its Change Email card
 * names it). Otherwise the HTML stays free of it, as a visitor's page is: Settings' answer goes
 * into the page without it and marked stale, so the browser asks for it once the page has
 * hydrated (ChangeEmailForm says nothing of the address meanwhile).
 */
function withoutHiddenEmail(queryClient: QueryClient) {
  queryClient.setQueriesData<RouterOutputs['auth']['session']>(
    { queryKey: getQueryKey(trpc.auth.session) },
    (session) =>
      session && !session.user.emailVisible
        ? { ...session, user: { ...session.user, email: null } }
        : session,
  );
  queryClient.setQueriesData<RouterOutputs['users']['byUsername']>(
    { queryKey: getQueryKey(trpc.users.byUsername) },
    (profile) =>
      profile?.user.email && !profile.user.emailVisible
        ? { ...profile, user: { ...profile.user, email: null } }
        : profile,
  );
  const settings = { queryKey: getQueryKey(trpc.settings.get) };
  const hidden = queryClient.setQueriesData<RouterOutputs['settings']['get']>(settings, (own) =>
    own && !own.emailVisible ? { ...own, email: '' } : own,
  );
  if (hidden.some(([, own]) => own && !own.emailVisible))
    void queryClient.invalidateQueries({ ...settings, refetchType: 'none' });
}

/**
 * A public page in each language: `hreflang` links to its address with `?lang=` (the choice that
 * comes first, @cubes/api/languages), `x-default` to the address itself, which follows the reader's
 * cookie or browser; and `og:locale`. From the page's canonical link (a page without one, a
 * `noindex` page, has none). A page asked for in its language by `?lang=` is its own canonical
 * address (and `og:url`): a canonical link to another of its hreflang addresses tells a search
 * engine to drop this language (Lighthouse's SEO audit "canonical" fails it).
 */
function languageAlternates(tags: HeadTag[], language: Language, askedByQuery: boolean): HeadTag[] {
  const canonical = tags.find((tag) => tag.tag === 'link' && tag.rel === 'canonical');
  if (canonical?.tag !== 'link') return tags;
  const address = canonical.href;
  const inLanguage = (code: Language) => {
    const url = new URL(address);
    url.searchParams.set('lang', code);
    return url.href;
  };
  const own = askedByQuery ? inLanguage(language) : address;
  return [
    ...tags.map((tag) =>
      tag === canonical
        ? { ...tag, href: own }
        : tag.tag === 'meta' && tag.property === 'og:url' && tag.content === address
          ? { ...tag, content: own }
          : tag,
    ),
    ...LANGUAGES.map((code) => ({
      tag: 'link' as const,
      rel: 'alternate',
      hreflang: code,
      href: inLanguage(code),
    })),
    { tag: 'link' as const, rel: 'alternate', hreflang: 'x-default', href: address },
    { tag: 'meta' as const, property: 'og:locale', content: OG_LOCALES[language] },
  ];
}

const OG_LOCALES: Record<Language, string> = { en: 'en_US', de: 'de_DE', ar: 'ar_AR' };

/**
 * The paths a page is rendered for. A visitor's: home and the public pages with a loader. A
 * member's own (with their data): those, Chat, their profile, bookmarks, notifications and
 * Settings (the server chooses them: apps/server's pages/paths.ts, MEMBER_PAGE_PATH). A member's
 * shell: Moderation, whose first render waits for the session (header, tab bar and "Checking your
 * session…"), which paints before the scripts have come.
 */
export function rendersOnServer(pathname: string, reader: Reader = 'visitor'): boolean {
  if (pathname === '/') return true;
  const rendered = reader === 'visitor' ? PUBLIC_PAGES : reader === 'member' ? MEMBER_PAGES : SHELL_PAGES;
  return pageMatches(pathname).some(({ page }) => page.path in rendered);
}

const PUBLIC_PAGES = {
  'posts/:id': true,
  'profile/:username': true,
  'tags/:tag': true,
  search: true,
  gallery: true,
};
const MEMBER_PAGES = {
  ...PUBLIC_PAGES,
  chat: true,
  bookmarks: true,
  notifications: true,
  profile: true,
  settings: true,
};
const SHELL_PAGES = { moderation: true };

let rendering: Promise<unknown> = Promise.resolve();

/**
 * Runs one render at a time with the app's own i18n in the page's language. The components read
 * the render's i18n (AppProviders), but a few helpers outside components default to the app's
 * (a count's or a date's wording, lib/count-label.ts, lib/relative-time.ts): two renders in
 * different languages must not share it. A render's data is loaded before, so it is a few
 * milliseconds of CPU, which Node spends one after the other anyway.
 */
function withAppLanguage<T>(i18n: I18n, render: () => Promise<T>): Promise<T> {
  const run = rendering.then(() => {
    appI18n.loadAndActivate({ locale: i18n.locale, messages: i18n.messages });
    return render();
  });
  rendering = run.catch(() => undefined);
  return run;
}

/**
 * React's streaming renderer, read to its end: every Suspense boundary resolved (the data is
 * already in the cache, the page's chunk already loaded), as a crawler and a link preview need it.
 */
function renderToString(element: React.ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const stream = renderToPipeableStream(element, {
      // Every boundary in place: React would otherwise move a large one (over 12.8 kB) to the end
      // of the stream, put back by an inline script, which the page's CSP does not run.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        stream.pipe(
          new Writable({
            write(chunk: Buffer, _encoding: string, done: () => void) {
              html += chunk.toString('utf8');
              done();
            },
            final(done: () => void) {
              resolve(html);
              done();
            },
          }),
        );
      },
      onShellError: reject,
      onError(error) {
        // A component that threw: React renders its nearest boundary's fallback, the client retries.
        console.error('server render:', error);
      },
    });
  });
}
