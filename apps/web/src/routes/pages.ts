/**
 * The pages that load on first visit: each route's path (react-router's pattern, under `/`) and
 * its module in this folder. Plain data, read twice: app.tsx builds its lazy routes from it, and
 * the build (build/page-preloads.ts) lists each page's chunks by it for the server, which names
 * them in the index.html it sends for that path so the browser asks for them beside the app's
 * own script instead of after it has run. Home and the 404 page are in the first chunk.
 */
export const LAZY_PAGES = [
  { path: 'auth', module: 'auth' },
  { path: 'cubes', module: 'cubes' },
  { path: 'search', module: 'search' },
  { path: 'gallery', module: 'gallery' },
  { path: 'chat', module: 'chat' },
  { path: 'profile', module: 'profile' },
  { path: 'profile/:username', module: 'user-profile' },
  { path: 'settings', module: 'settings' },
  { path: 'tags/:tag', module: 'tag' },
  { path: 'bookmarks', module: 'bookmarks' },
  { path: 'moderation', module: 'moderation' },
  { path: 'notifications', module: 'notifications' },
  { path: 'posts/:id', module: 'post' },
] as const;

export type LazyPage = (typeof LAZY_PAGES)[number];
