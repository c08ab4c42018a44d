/**
 * Switching the app's language (issue #50): the catalog loads and every message renders again
 * (lib/i18n.ts), and the choice is remembered in the `lang` cookie, so the next page (rendered on
 * the server or not) starts in it (@cubes/api/languages).
 */
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_S, type Language } from '@cubes/api/languages';
import { activateLanguage } from '../../lib/i18n';

export function rememberLanguage(language: Language): void {
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie, written once per choice.
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${LANGUAGE_COOKIE_MAX_AGE_S}; samesite=lax`;
}

export async function switchLanguage(language: Language): Promise<void> {
  rememberLanguage(language);
  await activateLanguage(language);
}
