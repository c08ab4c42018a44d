import { lingui } from '@lingui/vite-plugin';
import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { minifyPublicScripts } from './build/minify-public.ts';
import { pagePreloads } from './build/page-preloads.ts';
import { precompress } from './build/precompress.ts';
import { preloadFont } from './build/preload-font.ts';
import { serviceWorker } from './src/pwa/sw.plugin.ts';

// The Fastify server (apps/server) answers /api, /trpc (HTTP and WebSocket) and /objects. In
// production it serves this app's dist/ itself on one port; in `vite dev` we proxy to it.
const server = 'http://localhost:3000';

/** Test files that replace a module with vi.mock, or need a first load of their own: run isolated. */
const ISOLATED = [
  'src/features/posts/composer.test.tsx',
  'src/features/settings/settings.test.tsx',
  // settings-sections.tsx remembers, from its first load, whether the member has acted.
  'src/features/settings/settings-sections.test.tsx',
];

/**
 * Lingui's macros (`t`, `<Trans>`, `<Plural>` from @lingui/core/macro and @lingui/react/macro) are
 * compiled away by its Babel plugin, run only on the modules that import one; the catalogs
 * (`*.po`) are compiled when imported by the Lingui plugin (lib/i18n.ts, lingui.config.ts).
 */
const i18n = [
  babel({
    presets: [
      defineRolldownBabelPreset({
        preset: () => ({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
        rolldown: { filter: { code: /@lingui\/(core|react)\/macro/ } },
      }),
    ],
  }),
  lingui(),
];

export default defineConfig(({ isSsrBuild }) => ({
  // The server's build (`vite build --ssr src/entry-server.tsx`, into dist-ssr/) renders visitors'
  // pages (apps/server/src/pages/render.ts): one file with every dependency in it, so the server
  // needs none of the web app's packages; the browser's files, preloads and Brotli copies are the
  // client build's alone.
  plugins: isSsrBuild
    ? [react(), ...i18n, tailwindcss()]
    : [
        react(),
        ...i18n,
        tailwindcss(),
        preloadFont(),
        pagePreloads(),
        serviceWorker(),
        minifyPublicScripts(),
        precompress(),
      ],
  ssr: { noExternal: true },
  // React's production build whatever NODE_ENV the server runs with (its development build
  // renders several times slower, and a bench or test server leaves NODE_ENV unset).
  ...(isSsrBuild
    ? { publicDir: false, define: { 'process.env.NODE_ENV': JSON.stringify('production') } }
    : {}),
  server: {
    proxy: {
      '/api': server,
      '/objects': server,
      '/trpc': { target: server, ws: true },
    },
  },
  build: {
    // Keep the bundle free of remote URLs: everything (fonts included) is served by the app itself.
    assetsInlineLimit: 0,
    // dist/.vite/manifest.json: the chunk graph scripts/initial-js.ts measures the first page by.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The form state every form holds (useZodForm) and the error line under a field, in
            // one chunk instead of two of a few hundred bytes each: the home page's composer needs
            // both on its first render, as do the chat and Cubey boxes; with them the loader of
            // the schemas they check with (lib/lazy-schema.ts), which the comment box shares. zod stays out (the hook
            // imports only its types): it comes with @cubes/api/schemas, the one lazy chunk a form
            // loads to check (27 KB Brotli, no room in the first page's budget), and a group that
            // held it would put it on the first page. Only these two modules: with their
            // dependencies (the default) the group took React in too. Left to itself Rolldown
            // makes one chunk per set of importers (rolldown#10731).
            {
              name: 'form',
              test: /\/src\/(components\/form\/(use-zod-form|field-error)|lib\/lazy-schema)\.tsx?$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // A guard against hangs, as in the other packages, not a timing: a file's first render takes
    // 1.4 s alone and passed 5 s when CI's packages ran their suites side by side on two cores; at
    // a load average of 10 on two cores a test that takes 2 s alone takes 20. How long one wait
    // may take is setup.ts's (asyncUtilTimeout).
    testTimeout: 60_000,
    // The JSON report feeds .ci/run's one-line total.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      // Files share a worker's modules and jsdom (isolate: false): loading the app and a fresh
      // jsdom once per file was most of the suite's time. setup.ts empties the DOM, local storage
      // and the sockets after every test; each render makes its own query client.
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
        },
      },
      // Files that replace a module (vi.mock) or need a first load of their own.
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
}));
