/**
 * The one parser of `@mentions` and `#tags` in what members write, shared by the server (which
 * stores and notifies what it finds) and the web app (which renders them as links): no zod, no
 * Node, so the web bundle can import it (`@cubes/api/text-links`).
 *
 * - A mention is `@` and a username (letters A–Z, digits, `_`, 3 to 30 of them), not glued to a
 *   word before it (so `me@example.com` is no mention). Usernames match case-insensitively.
 * - A tag is `#` and letters (any script), combining marks, digits and `_`, with at least one
 *   letter or `_` (so `#1` is no tag), not glued to a word before it. Tags are folded (NFKC,
 *   lower case) to compare and store: `#Cubes`, `#CUBES` and `#cubes` are one tag.
 */

/** Longest tag kept, in characters after folding; a longer run is no tag. */
export const TAG_MAX_LENGTH = 64;

/** At most this many members are linked, stored and notified per post or comment. */
export const MENTIONS_MAX = 10;

/** At most this many tags are stored per post. */
export const TAGS_MAX = 20;

const MENTION = /(?<![\p{L}\p{N}_@/.#])@([A-Za-z0-9_]{3,30})(?![A-Za-z0-9_@])/gu;
const TAG = /(?<![\p{L}\p{N}\p{M}_#/&@])#([\p{L}\p{M}\p{N}_]+)/gu;
const HAS_LETTER = /[\p{L}_]/u;

/** A tag as it is stored and compared: NFKC, lower case. */
export function foldTag(tag: string): string {
  return tag.normalize('NFKC').toLowerCase();
}

/** Whether `value` (without `#`) is a tag as written, e.g. a /tags/{tag} path segment. */
export function isTag(value: string): boolean {
  const folded = foldTag(value);
  return (
    folded.length > 0 &&
    folded.length <= TAG_MAX_LENGTH &&
    /^[\p{L}\p{M}\p{N}_]+$/u.test(folded) &&
    HAS_LETTER.test(folded)
  );
}

/**
 * The start of a tag that a search query is, folded, with or without its `#` ("#CUbe" → "cube"),
 * or null when it could start no tag (empty, too long, spaces, punctuation, emoji).
 */
export function tagPrefixOf(query: string): string | null {
  const folded = foldTag(query.trim().replace(/^#/, ''));
  return folded.length > 0 && folded.length <= TAG_MAX_LENGTH && /^[\p{L}\p{M}\p{N}_]+$/u.test(folded)
    ? folded
    : null;
}

export type TextToken =
  | { type: 'text'; value: string }
  | { type: 'mention'; value: string; username: string }
  | { type: 'tag'; value: string; tag: string };

/**
 * `text` cut into plain runs, mentions (`value` as written, e.g. "@Alice"; `username` as written
 * without `@`) and tags (`tag` folded). Joining every `value` gives `text` back.
 */
export function tokenize(text: string): TextToken[] {
  const found: { start: number; end: number; token: TextToken }[] = [];
  for (const m of text.matchAll(MENTION)) {
    found.push({
      start: m.index,
      end: m.index + m[0].length,
      token: { type: 'mention', value: m[0], username: m[1] as string },
    });
  }
  for (const m of text.matchAll(TAG)) {
    const raw = m[1] as string;
    if (!isTag(raw)) continue;
    found.push({
      start: m.index,
      end: m.index + m[0].length,
      token: { type: 'tag', value: m[0], tag: foldTag(raw) },
    });
  }
  found.sort((a, b) => a.start - b.start);
  const tokens: TextToken[] = [];
  let at = 0;
  for (const f of found) {
    if (f.start < at) continue;
    if (f.start > at) tokens.push({ type: 'text', value: text.slice(at, f.start) });
    tokens.push(f.token);
    at = f.end;
  }
  if (at < text.length) tokens.push({ type: 'text', value: text.slice(at) });
  return tokens;
}

/** The distinct usernames mentioned, lower case, in order of first appearance, at most `max`. */
export function mentionedUsernames(text: string, max = MENTIONS_MAX): string[] {
  const names = new Set<string>();
  for (const token of tokenize(text)) {
    if (token.type === 'mention') names.add(token.username.toLowerCase());
    if (names.size >= max) break;
  }
  return [...names];
}

/** The distinct folded tags, in order of first appearance, at most `max`. */
export function tagsOf(text: string, max = TAGS_MAX): string[] {
  const tags = new Set<string>();
  for (const token of tokenize(text)) {
    if (token.type === 'tag') tags.add(token.tag);
    if (tags.size >= max) break;
  }
  return [...tags];
}

/**
 * The `@` mention being typed at `caret`, for autocomplete: its start (the `@`) and the name so
 * far (maybe empty), or null when the caret is not in one.
 */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(?<![\p{L}\p{N}_@/.#])@([A-Za-z0-9_]{0,30})$/u.exec(before);
  if (!m) return null;
  return { start: m.index, query: m[1] as string };
}
