/**
 * Which link of a post gets a card: its first http(s) URL, found as the web app's linkify.ts finds
 * links (a run of non-space characters after `http://` or `https://`, sentence punctuation and an
 * unmatched closing parenthesis left out), then normalized to the key its preview is kept under.
 */

/** Longer URLs get no card (browsers and servers commonly stop near 2,000 characters). */
export const MAX_LINK_URL_LENGTH = 2048;

const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/gi;
const TRAILING = /[.,;:!?'"*_\]}]+$/;

function trimTrailing(candidate: string): string {
  let url = candidate.replace(TRAILING, '');
  while (url.endsWith(')') && (url.match(/\(/g)?.length ?? 0) < (url.match(/\)/g)?.length ?? 0)) {
    url = url.slice(0, -1).replace(TRAILING, '');
  }
  return url;
}

/**
 * The URL as its preview is kept: http(s) with a host and no credentials, the fragment dropped
 * (the host is lower-cased and a default port dropped by the URL parser); null for anything else,
 * or past MAX_LINK_URL_LENGTH.
 */
export function normalizeLinkUrl(raw: string): string | null {
  if (raw.length > MAX_LINK_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname || url.username || url.password) return null;
  url.hash = '';
  return url.href.length > MAX_LINK_URL_LENGTH ? null : url.href;
}

/** The normalized first http(s) link of `text` that can have a card, or null. */
export function firstLink(text: string): string | null {
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = normalizeLinkUrl(trimTrailing(match[0]));
    if (url) return url;
  }
  return null;
}
