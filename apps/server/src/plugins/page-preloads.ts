/**
 * The chunks of the page a path lands on, as `modulepreload` links for the index.html sent for
 * it. The web build lists them (apps/web/build/page-preloads.ts, dist/.vite/page-preloads.json):
 * each lazy page's route path and the chunks it needs beyond the app's first script. Named in the
 * HTML, they are asked for beside that script instead of after it has run: one round trip less
 * before a page such as /search or /cubes can ask for its answers. The list also names each
 * language's catalog chunk, which every page needs before it renders.
 *
 * Paths match as react-router matches the web app's routes: segment by segment, static segments
 * without regard to case, `:name` any one segment, a trailing slash ignored.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const PAGE_PRELOADS_FILE = path.join('.vite', 'page-preloads.json');

// Built file names only: they go into the HTML as they are.
const builtFile = z.string().regex(/^\/[\w./-]+\.js$/);

const preloadsSchema = z.object({
  pages: z.array(z.object({ path: z.string(), files: z.array(builtFile) })),
  catalogs: z.record(z.string(), builtFile).default({}),
});

export type PageLinks = {
  /** Each page's links, in the order of the build's list. */
  readonly links: readonly string[];
  /** The index into `links` of the page `pathname` lands on, or -1. */
  find(pathname: string): number;
  /**
   * The link to `language`'s catalog chunk, or '' (a build without the list): the app renders
   * nothing before its catalog has come, so the browser asks for it beside the first script.
   */
  catalog(language: string): string;
};

/** Reads the build's list; none (no links) for a build without one, such as a test's dist. */
export function loadPageLinks(dist: string): PageLinks {
  const file = path.join(dist, PAGE_PRELOADS_FILE);
  if (!existsSync(file)) return { links: [], find: () => -1, catalog: () => '' };
  const { pages, catalogs } = preloadsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const patterns = pages.map((page) => segments(page.path));
  return {
    links: pages.map((page) => page.files.map(preloadLink).join('')),
    catalog: (language) => {
      const href = catalogs[language];
      return href ? preloadLink(href) : '';
    },
    find(pathname) {
      const parts = segments(pathname);
      return patterns.findIndex(
        (pattern) =>
          pattern.length === parts.length &&
          pattern.every(
            (segment, i) => segment.startsWith(':') || segment.toLowerCase() === parts[i]!.toLowerCase(),
          ),
      );
    },
  };
}

function preloadLink(href: string): string {
  return `<link rel="modulepreload" crossorigin href="${href}">`;
}

function segments(pathname: string): string[] {
  return pathname.split('/').filter((segment) => segment !== '');
}
