/**
 * Limits and small rules the forms' zod schemas are built on, in a module without zod: the web's
 * first page needs a few of them, and importing any *.schema.ts module would bring all of zod
 * into that bundle (its schemas are built when the module loads). The schema modules re-export
 * these, so `@cubes/api/schemas` still offers everything.
 */

/** A post's text, trimmed. */
export const POST_MAX_LENGTH = 2000;

/** A comment's text, trimmed. */
export const COMMENT_MAX_LENGTH = 2000;

/** A post holds at most this many images, each with a description of at most this many characters. */
export const POST_IMAGES_MAX = 4;
export const IMAGE_ALT_MAX_LENGTH = 1500;

/** A post's content warning, trimmed (the column's check says the same). */
export const CONTENT_WARNING_MAX = 200;

/** Trending tags count the posts and people of this window, and say so with its label. */
export const TRENDING_WINDOW_MS = 24 * 60 * 60_000;
export const TRENDING_WINDOW_LABEL = `in the last ${TRENDING_WINDOW_MS / 3_600_000} h`;

/** An author may edit a post this long after publishing it. */
export const POST_EDIT_WINDOW_MS = 15 * 60_000;

/** How often a typing client says so again, and when a silent "typing" goes away by itself. */
export const TYPING_REFRESH_MS = 3_000;
export const TYPING_EXPIRES_MS = 6_000;

/**
 * A deleted account keeps a placeholder username, `~` and hex digits: registration refuses `~`,
 * so it is never anyone's. Screens that still show such an account (a conversation) hide it.
 */
export const DELETED_USERNAME_PREFIX = '~';
export function isDeletedUsername(username: string): boolean {
  return username.startsWith(DELETED_USERNAME_PREFIX);
}

/** A poll: 2 to 4 options of 1 to 50 characters, open 5 minutes to 7 days. */
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 4;
export const POLL_OPTION_MAX_LENGTH = 50;
export const POLL_MINUTES_MIN = 5;
export const POLL_MINUTES_MAX = 7 * 24 * 60;

/** `text` cut at `max` characters (code points, not UTF-16 units), with an ellipsis when cut. */
export function cutText(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** The gallery's media types. */
export const AI_MEDIA_TYPE_VALUES = ['art', 'music', 'fun', 'video'] as const;
export type AiMediaTypeValue = (typeof AI_MEDIA_TYPE_VALUES)[number];

/**
 * The types a gallery page asks for: the selector's choice, narrowed by the text filter on type
 * names. The server pages these; the web page counts them from the stats (the lightbox's "3 of 12").
 */
export function galleryTypes(input: { type?: 'all' | AiMediaTypeValue; q?: string }): AiMediaTypeValue[] {
  const needle = (input.q ?? '').trim().toLowerCase();
  const type = input.type ?? 'all';
  return AI_MEDIA_TYPE_VALUES.filter((t) => (type === 'all' || type === t) && t.includes(needle));
}

/** How many items the gallery has of `types` (a page's filter), from its stats. */
export function galleryCount(
  stats: Record<AiMediaTypeValue, number>,
  types: readonly AiMediaTypeValue[],
): number {
  return types.reduce((sum, type) => sum + stats[type], 0);
}

/** The languages the app speaks, and how a request's is chosen: languages.ts. */
export {
  DEFAULT_LANGUAGE,
  isLanguage,
  isRtl,
  LANGUAGE_NAMES,
  LANGUAGES,
  type Language,
} from './languages.js';
