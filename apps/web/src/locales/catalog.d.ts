/** A catalog, as the Lingui Vite plugin compiles a `.po` file when it is imported (lib/i18n.ts). */
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
