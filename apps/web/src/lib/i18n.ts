/**
 * The app's language (issue #50). Messages are written in English in the components through
 * Lingui's macros and compiled into one catalog per language (lingui.config.ts); this module
 * chooses the language and loads its catalog, the only one a page loads.
 *
 * Which language: a member's own setting (on their account, every device), else the `lang`
 * cookie a visitor set from the language menu, else the first language of the browser's
 * `Accept-Language` we speak, else English. The server makes the same choice for a page it renders
 * (`<html lang dir>`), and the browser starts from what the server chose, so a hydrated page reads
 * the catalog it was rendered with.
 */
import { DEFAULT_LANGUAGE, isRtl, LANGUAGES, type Language } from '@cubes/api/rules';
import { type I18n, i18n, type Messages, setupI18n } from '@lingui/core';

export type { Language };
export { i18n };

/** The cookie that remembers a visitor's choice, for a year. */
export const LANGUAGE_COOKIE = 'lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The first language of an `Accept-Language` header (or `navigator.languages`) that we speak, by
 * its quality: `de-CH;q=0.9, en;q=0.8` → `de`. Null when none is ours.
 */
export function languageOfAccepted(accepted: string | readonly string[] | undefined): Language | null {
  if (!accepted) return null;
  const ranges =
    typeof accepted === 'string'
      ? accepted
          .split(',')
          .map((part, index) => {
            const [range = '', ...params] = part.trim().split(';');
            const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find(Boolean);
            return { range: range.trim(), q: q === undefined ? 1 : Number(q), index };
          })
          .filter(({ q, range }) => range && Number.isFinite(q) && q > 0)
          .sort((a, b) => b.q - a.q || a.index - b.index)
          .map(({ range }) => range)
      : accepted;
  for (const range of ranges) {
    const primary = range.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return null;
}

/** The value of the `lang` cookie in a Cookie header, when it names a language of ours. */
export function languageOfCookie(cookieHeader: string | undefined): Language | null {
  const match = cookieHeader?.match(/(?:^|;\s*)lang=([^;]*)/);
  const value = match?.[1];
  return isLanguage(value) ? value : null;
}

/** The visitor's language: their cookie, else their browser's, else English. */
export function chooseLanguage(
  cookieHeader: string | undefined,
  accepted: string | readonly string[] | undefined,
): Language {
  return languageOfCookie(cookieHeader) ?? languageOfAccepted(accepted) ?? DEFAULT_LANGUAGE;
}

/** `dir` for the document in `language`. */
export function directionOf(language: Language): 'rtl' | 'ltr' {
  return isRtl(language) ? 'rtl' : 'ltr';
}

/** Each language's compiled catalog, a chunk of its own (the Vite plugin compiles the .po). */
const catalogs: Record<Language, () => Promise<{ messages: Messages }>> = {
  en: () => import('../locales/en/messages.po'),
  de: () => import('../locales/de/messages.po'),
  ar: () => import('../locales/ar/messages.po'),
};

/** Loads `language`'s catalog into the app's i18n (the browser's one) and makes it the active one. */
export async function activateLanguage(language: Language): Promise<void> {
  if (i18n.locale === language) return;
  const { messages } = await catalogs[language]();
  i18n.loadAndActivate({ locale: language, messages });
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
