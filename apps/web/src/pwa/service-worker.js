// The app's service worker: the build writes it to dist/sw.js with PRECACHE filled in (the
// built assets and public files, see sw.plugin.ts) and VERSION (a hash of them), so every deploy
// that changes a byte installs a new worker and drops the old caches.
//
// - Pages (navigations) go to the network first; offline, the cached app shell answers and the
//   app shows its "You're offline" state. The shell is index.html, the same for everyone.
// - Built assets (/assets/, content-hashed) come from the cache; others are cached on first use.
// - /api, /trpc and /objects are never touched: answers that depend on the session stay between
//   the page and the server.
/* global self, caches, pushNotice */

/** @type {string[]} */
const PRECACHE = self.__CUBES_PRECACHE__ ?? [];
const VERSION = self.__CUBES_VERSION__ ?? 'dev';
const CACHE = `cubes-${VERSION}`;
const SHELL = '/';
const SHELL_HEADER = 'x-cubes-shell';
const PASS_THROUGH = ['/api/', '/trpc', '/objects/'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // cache: 'reload' skips the HTTP cache, so the shell and files are this deploy's. The shell is
      // the page as built, never one the server rendered (apps/server/src/plugins/web.ts): an
      // offline reload of any path starts from it, and a rendered page would bring along whichever
      // page and session (a visitor's, none) was rendered when it was stored.
      await cache.addAll([
        new Request(SHELL, { cache: 'reload', headers: { [SHELL_HEADER]: '1' } }),
        ...PRECACHE.map((url) => new Request(url, { cache: 'reload' })),
      ]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith('cubes-') && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (PASS_THROUGH.some((prefix) => url.pathname.startsWith(prefix))) return;

  if (request.mode === 'navigate') {
    event.respondWith(networkThenShell(request));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheThenNetwork(request));
  } else if (PRECACHE.includes(url.pathname)) {
    event.respondWith(networkThenCache(request));
  }
});

/** A page: the server's answer, or the cached shell when the network fails. */
async function networkThenShell(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match(SHELL, { cacheName: CACHE });
    if (shell) return shell;
    throw error;
  }
}

/** A content-hashed asset: never changes, so the cache's copy is the one. */
async function cacheThenNetwork(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** A public file (icons, theme-init.js): fresh when online, the precached copy offline. */
async function networkThenCache(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(request, { cacheName: CACHE });
    if (cached) return cached;
    throw error;
  }
}

// Push (features/push): the server sends what happened, not a sentence (issue #50):
// { kind, who, name, snippet, lang, url }. pushNotice (push-texts.ts, which the build puts before
// this file) words it in `lang`, the member's language; a push it cannot read says so in the
// language of the `lang` cookie or of the browser. A click focuses an open tab of the app and
// takes it to `url` (the post, the profile or the conversation), or opens one there when none is
// open.
self.addEventListener('push', (event) => {
  /** @type {unknown} */
  let data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch {
    data = null;
  }
  const url = sameOriginPath(data && typeof data === 'object' ? data.url : undefined);
  event.waitUntil(
    (async () => {
      const notice = pushNotice(data, [await cookieLanguage(), ...(self.navigator.languages ?? [])]);
      await self.registration.showNotification('Cubes', {
        body: notice.body,
        lang: notice.lang,
        dir: notice.dir,
        icon: '/icons/icon-192.png',
        badge: '/icons/icon-192.png',
        // One notification per place: a second like on the same post replaces the first.
        tag: url,
        data: { url },
      });
    })(),
  );
});

/** The `lang` cookie (the app's language, @cubes/api/languages), where the browser lets a worker read it. */
async function cookieLanguage() {
  try {
    return (await self.cookieStore?.get('lang'))?.value ?? null;
  } catch {
    return null;
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOriginPath(event.notification.data?.url);
  event.waitUntil(openOrFocus(url));
});

/** A path on this origin, or '/': a push never sends the app elsewhere. */
function sameOriginPath(value) {
  if (typeof value !== 'string') return '/';
  try {
    const target = new URL(value, self.location.origin);
    return target.origin === self.location.origin ? `${target.pathname}${target.search}${target.hash}` : '/';
  } catch {
    return '/';
  }
}

/**
 * Takes an open tab of the app to `path` and focuses it, or opens a new one. The app's router
 * follows the message (no reload). The tab moves even when the browser refuses the focus (it
 * allows one only within a click's own handler, for a few seconds).
 */
async function openOrFocus(path) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const tab = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (tab) {
    tab.postMessage({ type: 'cubes:navigate', url: path });
    return tab.focus().catch(() => tab);
  }
  return self.clients.openWindow(path);
}
