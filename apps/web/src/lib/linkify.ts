/**
 * Splits user text into plain text and http(s) links, so the UI can render links as <a> elements
 * and everything else as text nodes (React escapes them). Never produces HTML.
 */

export type TextPart = { type: 'text'; value: string } | { type: 'link'; value: string; href: string };

// A URL runs until whitespace or a character that cannot start markup around it.
const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/gi;
// Punctuation that usually ends the sentence rather than the URL.
const TRAILING = /[.,;:!?'"*_\]}]+$/;

function trimTrailing(candidate: string): string {
  let url = candidate.replace(TRAILING, '');
  // A closing parenthesis belongs to the URL only when it has an opening one: "(see https://x.io)".
  while (url.endsWith(')') && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) {
    url = url.slice(0, -1).replace(TRAILING, '');
  }
  return url;
}

/** The URL as a safe href, or null unless it parses as http: or https: with a host. */
export function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}

export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  const pushText = (value: string) => {
    if (!value) return;
    const previous = parts[parts.length - 1];
    if (previous?.type === 'text') previous.value += value;
    else parts.push({ type: 'text', value });
  };
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index;
    const value = trimTrailing(match[0]);
    const href = safeHref(value);
    if (!href) continue;
    pushText(text.slice(last, start));
    parts.push({ type: 'link', value, href });
    last = start + value.length;
  }
  pushText(text.slice(last));
  return parts;
}
