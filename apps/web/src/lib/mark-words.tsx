/**
 * The words a search matched, marked in member-written text. The server names the matched
 * words (after stemming, accents and typo correction); they are marked wherever they occur as
 * whole words. Built from text nodes and <mark> only: the text is never parsed as markup.
 */
import { useMemo } from 'react';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface TextPart {
  text: string;
  marked: boolean;
}

/** Splits `text` into runs, marking each whole-word, case-insensitive occurrence of a word of `words`. */
export function markWords(text: string, words: readonly string[]): TextPart[] {
  const clean = words.filter((w) => w.trim().length > 0);
  if (clean.length === 0) return [{ text, marked: false }];
  // Longest first, so "running" wins over "run" where both match.
  const alternatives = [...clean].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ text: text.slice(last, start), marked: false });
    parts.push({ text: match[0], marked: true });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), marked: false });
  return parts;
}

/** `text` with the whole-word occurrences of `words` in <mark>: text nodes only, never markup. */
export function MarkedText({ text, words }: { text: string; words: readonly string[] }) {
  const parts = useMemo(() => markWords(text, words), [text, words]);
  if (parts.length === 1 && !parts[0]?.marked) return <>{text}</>;
  return (
    <>
      {parts.map((part, index) =>
        part.marked ? (
          // Parts are derived from the text and never reorder: their index is a stable key.
          <mark key={index} className="rounded-sm bg-primary/20 px-0.5 text-foreground dark:bg-primary/35">
            {part.text}
          </mark>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </>
  );
}
