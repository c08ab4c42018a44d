/**
 * A Vite plugin that writes dist/.vite/page-preloads.json: for each page that loads on first
 * visit (src/routes/pages.ts), its route's path and the chunks its module needs that the app's
 * first script does not already bring: the page's own chunk and the shared chunks it imports.
 *
 * The server (apps/server/src/plugins/web.ts) names them as `modulepreload` links in the
 * index.html it sends for that path. Without them a phone asks for the page's chunk only once
 * `index-*.js` has arrived and run: one round trip more before the page's first answers are asked
 * for (on Lighthouse's slow 4G, 562 ms; bench/README.md, "Lighthouse with applied throttling").
 *
 * It also names each language's catalog chunk: the app renders nothing before the page's
 * catalog has come (src/main.tsx), so the server names the page language's one too.
 */
import type { Plugin } from 'vite';
import { LAZY_PAGES } from '../src/routes/pages.ts';
import { staticClosure } from './chunk-graph.ts';

export const PAGE_PRELOADS_FILE = '.vite/page-preloads.json';

export type PagePreloads = {
  pages: { path: string; files: string[] }[];
  /** Each language's catalog chunk (src/lib/i18n.ts loads the page's one before it renders). */
  catalogs: Record<string, string>;
};

/** A language's catalog module: src/locales/<language>/messages.po. */
const CATALOG_MODULE = /\/src\/locales\/([a-z]{2})\/messages\.po$/;

type Chunk = { fileName: string; imports: string[]; isEntry: boolean; facadeModuleId: string | null };

export function pagePreloads(): Plugin {
  return {
    name: 'cubes-page-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, Chunk>();
      for (const output of Object.values(bundle))
        if (output.type === 'chunk') chunks.set(output.fileName, output);
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) throw new Error('page-preloads: the build has no entry chunk');
      const importsOf = (fileName: string) => chunks.get(fileName)?.imports;
      const first = staticClosure(entry.fileName, importsOf);
      const pages = LAZY_PAGES.map(({ path, module }) => {
        const suffix = `/src/routes/${module}.tsx`;
        const chunk = [...chunks.values()].find((c) =>
          c.facadeModuleId?.replaceAll('\\', '/').endsWith(suffix),
        );
        if (!chunk) throw new Error(`page-preloads: no chunk for src/routes/${module}.tsx (routes/pages.ts)`);
        const files = [...staticClosure(chunk.fileName, importsOf)].filter((file) => !first.has(file));
        return { path, files: files.map((file) => `/${file}`) };
      });
      const catalogs: Record<string, string> = {};
      for (const chunk of chunks.values()) {
        const language = chunk.facadeModuleId?.replaceAll('\\', '/').match(CATALOG_MODULE)?.[1];
        if (language) catalogs[language] = `/${chunk.fileName}`;
      }
      const preloads: PagePreloads = { pages, catalogs };
      this.emitFile({
        type: 'asset',
        fileName: PAGE_PRELOADS_FILE,
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}
