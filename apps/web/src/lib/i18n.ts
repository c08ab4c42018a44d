/**
 * The app's language (issue #50). Messages are written in English in the components through
 * Lingui's macros and compiled into one catalog per language (lingui.config.ts); this module loads
 * the chosen language's catalog, the only one a page loads, and keeps the document's `lang` and
 * `dir` with it. Which language is @cubes/api/languages' rule, the server's too: a page it
 * rendered says its language in `<html lang>`, and the browser hydrates it with that catalog.
 */
import { directionOf, type Language } from '@cubes/api/languages';
import { type I18n, i18n, type Messages, setupI18n } from '@lingui/core';
import { preloadErrorTexts } from './error-text';

export { i18n };

/** Each language's compiled catalog, a chunk of its own (the Lingui plugin compiles the .po). */
const catalogs: Record<Language, () => Promise<{ messages: Messages }>> = {
  en: () => import('../locales/en/messages.po'),
  de: () => import('../locales/de/messages.po'),
  ar: () => import('../locales/ar/messages.po'),
};

/**
 * Loads `language`'s catalog into the app's i18n (the browser's one) and makes it the active one:
 * every component using it renders again (I18nProvider), and the document says the language and
 * its direction.
 */
export async function activateLanguage(language: Language): Promise<void> {
  // The error texts come beside the catalog, so an error in the first seconds is in this language too.
  preloadErrorTexts(language);
  if (i18n.locale !== language) {
    const { messages } = await catalogs[language]();
    i18n.loadAndActivate({ locale: language, messages });
  }
  if (typeof document !== 'undefined') {
    document.documentElement.lang = language;
    document.documentElement.dir = directionOf(language);
  }
}

const instances = new Map<Language, Promise<I18n>>();

/**
 * An i18n of its own for `language`, for the server: its renders of different languages run side
 * by side, so none may switch a shared one. Made once per language.
 */
export function i18nFor(language: Language): Promise<I18n> {
  let instance = instances.get(language);
  if (!instance) {
    instance = catalogs[language]().then(({ messages }) =>
      setupI18n({ locale: language, messages: { [language]: messages } }),
    );
    instances.set(language, instance);
  }
  return instance;
}
