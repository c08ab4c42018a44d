/**
 * Turns what a member typed into the parts of a PostgreSQL text search, without ever handing
 * PostgreSQL query syntax it did not come from us: words are reduced to letters and digits, so
 * quotes, backslashes, `%`, `_`, `:*` and `&|!` can only separate words, never operate.
 *
 * - `"two words"` is a phrase and `-word` (or `-"a phrase"`) excludes; these go to
 *   websearch_to_tsquery, rebuilt from the clean words.
 * - Every other word is prefix-matched (search.sql.ts), so the word being typed matches already;
 *   these are also the terms a misspelling is corrected in (search.typo.ts).
 */

const WORD = /[\p{L}\p{N}]+/gu;
/** Beyond this a query is noise; the words after it are ignored. */
export const MAX_TERMS = 8;
export const MAX_WORD_LENGTH = 40;

export interface ParsedQuery {
  /** Words matched by prefix, in order, at most MAX_TERMS. */
  terms: string[];
  /** websearch_to_tsquery text of the phrases and exclusions ('' when none). */
  websearch: string;
  /** Whether anything must match: a query of exclusions alone finds nothing. */
  hasPositive: boolean;
}

function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.slice(0, MAX_WORD_LENGTH));
}

export function parseQuery(raw: string): ParsedQuery {
  const terms: string[] = [];
  const parts: string[] = [];
  let hasPositive = false;
  // A quoted phrase (closed or still open at the end), or a run of anything but space and quote.
  const TOKEN = /(-?)"([^"]*)"?|(-?)([^\s"]+)/g;
  for (const match of raw.matchAll(TOKEN)) {
    const [, phraseMinus, phrase, wordMinus, word] = match;
    if (phrase !== undefined) {
      const ws = words(phrase);
      if (ws.length === 0) continue;
      if (!phraseMinus) hasPositive = true;
      parts.push(`${phraseMinus ? '-' : ''}"${ws.join(' ')}"`);
    } else if (word !== undefined) {
      const ws = words(word);
      if (wordMinus && ws.length > 0) {
        parts.push(`-"${ws.join(' ')}"`);
      } else {
        for (const w of ws) if (terms.length < MAX_TERMS) terms.push(w);
      }
    }
  }
  if (terms.length > 0) hasPositive = true;
  return { terms, websearch: parts.join(' '), hasPositive };
}
