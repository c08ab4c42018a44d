/**
 * The languages Cubes speaks (issue #50), and how a request's language is chosen: the same rule
 * on the server, which renders pages and writes `<html lang dir>`, and in the browser, which loads
 * that language's catalog (apps/web/src/lib/i18n.ts). No zod here: the web's first page imports it.
 *
 * The choice, first that applies: a `?lang=` in the address (a page's alternate in each language,
 * as its `hreflang` links name them); the `lang` cookie (a visitor's pick from the language menu,
 * or a member's own setting, which the app writes there); the first language of the browser's
 * `Accept-Language` we speak, by quality; English.
 */

export const LANGUAGES = ['en', 'de', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language's name in itself, for the language menus. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', ar: 'العربية' };

/** The cookie that remembers the choice, and for how long. */
export const LANGUAGE_COOKIE = 'lang';
export const LANGUAGE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Arabic is written right to left. */
export function isRtl(language: Language): boolean {
  return language === 'ar';
}

/** `dir` for a document in `language`. */
export function directionOf(language: Language): 'rtl' | 'ltr' {
  return isRtl(language) ? 'rtl' : 'ltr';
}

/** At most this many ranges of an Accept-Language are read: a longer header is somebody's game. */
const MAX_RANGES = 32;

/**
 * The language of ours first in an `Accept-Language` header (by quality, then order) or in
 * `navigator.languages` (in order): `de-CH;q=0.9, en;q=0.8` → `de`. Null when none is ours.
 */
export function languageOfAccepted(accepted: string | readonly string[] | undefined | null): Language | null {
  if (!accepted) return null;
  const ranges =
    typeof accepted === 'string'
      ? accepted
          .split(',', MAX_RANGES)
          .map((part, index) => {
            const [range = '', ...params] = part.split(';');
            // A quality that is not a number makes the range unreadable (NaN), not preferred.
            const quality = params
              .map((param) => /^\s*q\s*=(.*)$/.exec(param)?.[1])
              .find((q) => q !== undefined);
            const q =
              quality === undefined ? 1 : /^\s*[0-9.]+\s*$/.test(quality) ? Number(quality) : Number.NaN;
            return { range: range.trim(), q, index };
          })
          .filter(({ range, q }) => range !== '' && Number.isFinite(q) && q > 0)
          .sort((a, b) => b.q - a.q || a.index - b.index)
          .map(({ range }) => range)
      : accepted.slice(0, MAX_RANGES);
  for (const range of ranges) {
    const primary = range.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return null;
}

/** The `lang` cookie's language in a Cookie header (or `document.cookie`), when it is ours. */
export function languageOfCookie(cookies: string | undefined | null): Language | null {
  const value = cookies?.match(/(?:^|;\s*)lang=([^;]*)/)?.[1]?.trim();
  return isLanguage(value) ? value : null;
}

/** The language of a request or a page: see the top of this module. */
export function chooseLanguage(choice: {
  query?: string | null;
  cookies?: string | null;
  accepted?: string | readonly string[] | null;
}): Language {
  if (isLanguage(choice.query)) return choice.query;
  return languageOfCookie(choice.cookies) ?? languageOfAccepted(choice.accepted) ?? DEFAULT_LANGUAGE;
}
