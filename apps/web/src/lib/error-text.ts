/**
 * The app's words for an API error, by its stable reason (lib/error-reasons.ts): the server keeps
 * its English `message`, and this shows the active language's text. The table of texts is a chunk
 * of its own, not part of the first page's JavaScript: it loads beside a German or Arabic catalog
 * (`preloadErrorTexts`, from lib/i18n.ts) and with the forms' schemas (lib/lazy-schema.ts).
 * English needs none of it: its texts are the server's messages.
 */

import { DEFAULT_LANGUAGE } from '@cubes/api/languages';
import { i18n } from '@lingui/core';

type ErrorTexts = typeof import('./error-reasons');

let texts: ErrorTexts | undefined;
let loading: Promise<ErrorTexts> | undefined;

/** Loads the texts once (again after a failed load). */
export function loadErrorTexts(): Promise<ErrorTexts> {
  loading ??= import('./error-reasons').then(
    (loaded) => {
      texts = loaded;
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Asks for the texts at once, for a language other than English (English never needs them). */
export function preloadErrorTexts(language: string): void {
  if (language === DEFAULT_LANGUAGE || typeof window === 'undefined') return;
  void loadErrorTexts().catch(() => undefined);
}

/**
 * What to show for an error's `message` (English) with its `reason`, if any, in the active
 * language: the app's text for the reason, or for the reason of the message (a schema's message
 * read in the browser carries none), else the message itself. Before the texts have loaded it
 * answers the message and asks for them.
 */
export function errorText(message: string, reason?: string | null): string {
  if (i18n.locale === DEFAULT_LANGUAGE || !i18n.locale) return message;
  if (texts) return texts.translateError(message, reason, i18n);
  void loadErrorTexts().catch(() => undefined);
  return message;
}
