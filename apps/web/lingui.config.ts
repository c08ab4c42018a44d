/**
 * Lingui's catalogs (issue #50): English is the source, written in the components through the
 * macros (`@lingui/react/macro`, `@lingui/core/macro`); `pnpm --filter @cubes/web i18n:extract`
 * writes every message into src/locales/{en,de,ar}/messages.po, which are checked in and
 * translated there. The Vite plugin compiles the active language's catalog when it is imported
 * (lib/i18n.ts), so only that one loads, as a chunk of its own.
 */
import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de', 'ar'],
  // A message with no translation yet shows in English, never as its id.
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      // I18N_CATALOGS: scripts/check-catalogs.ts extracts into a directory of its own to compare.
      path: `${process.env.I18N_CATALOGS ?? '<rootDir>/src/locales'}/{locale}/messages`,
      include: ['<rootDir>/src'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', '**/test/**'],
    },
  ],
  // The file each message came from, without line numbers: a line moved is not a catalog change.
  format: formatter({ lineNumbers: false }),
  orderBy: 'message',
  // The macros' <Trans> is ours (src/lib/trans.tsx): a member's text in a message stays text.
  runtimeConfigModule: { Trans: ['#trans', 'Trans'] },
});
