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
 * The i18n the app renders with (AppI18nProvider): one instance per language, swapped, never
 * switched in place. React hydrates a part of a server-rendered page that is still to hydrate (a
 * lazy chunk that has just arrived) with the state the server rendered, before a newer one: its
 * messages must come from that state's instance. A switched shared one gave them in the new
 * language, and React threw the part's HTML away (#418, lib/i18n.test.tsx).
 */
let active: I18n | null = null;
const listeners = new Set<() => void>();
let asked = 0;

/**
 * Makes `language` the app's: its catalog loads (once), every component renders again in it
 * (AppI18nProvider), and the document says the language and its direction. The app's shared i18n
 * follows too, for what runs outside a render (a toast raised by a request, an error's text). Of
 * two switches in flight, the later one asked wins.
 */
export async function activateLanguage(language: Language): Promise<void> {
  // The error texts come beside the catalog, so an error in the first seconds is in this language too.
  preloadErrorTexts(language);
  const ask = ++asked;
  const next = await i18nFor(language);
  if (ask !== asked) return;
  if (i18n.locale !== language) i18n.loadAndActivate({ locale: language, messages: next.messages });
  if (active !== next) {
    active = next;
    for (const listener of listeners) listener();
  }
  if (typeof document !== 'undefined') {
    document.documentElement.lang = language;
    document.documentElement.dir = directionOf(language);
  }
}

/** The i18n of the app's language (before any is activated, the shared one). */
export function activeI18n(): I18n {
  return active ?? i18n;
}

/** Calls `listener` each time another language becomes the app's. */
export function onLanguageChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const instances = new Map<Language, Promise<I18n>>();

/**
 * `language`'s own i18n, made once: the browser's for that language (activateLanguage), and the
 * server's, whose renders of different languages run side by side, so none may switch a shared one.
 */
export function i18nFor(language: Language): Promise<I18n> {
  let instance = instances.get(language);
  if (!instance) {
    instance = catalogs[language]().then(({ messages }) =>
      setupI18n({ locale: language, messages: { [language]: messages } }),
    );
    // A catalog that failed to load (the network, mid-deploy) is asked for again next time.
    instance.catch(() => instances.delete(language));
    instances.set(language, instance);
  }
  return instance;
}
