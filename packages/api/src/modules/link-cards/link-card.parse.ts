/**
 * What a page says about itself, read with htmlparser2 (a streaming HTML parser: no regular
 * expression ever looks at the markup, and no DOM is built): Open Graph first (`og:title`,
 * `og:description`, `og:site_name`, `og:image`), then Twitter's tags, then `<title>` and
 * `<meta name="description">`. Entities are decoded by the parser; every text is cleaned
 * (control characters out, white space folded, trimmed) and capped.
 */
import { Parser } from 'htmlparser2';
import { MAX_LINK_URL_LENGTH } from './link-card.url.js';

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 500;
export const SITE_NAME_MAX = 100;

export interface ParsedPreview {
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** The page's image as an absolute http(s) URL (to fetch; never shown as it is). */
  imageUrl: string | null;
}

// C0 and C1 control characters and DEL; lone surrogates.
// biome-ignore lint/suspicious/noControlCharactersInRegex: they are what it removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `value` without control characters, its white space folded, trimmed, at most `max` characters; null when empty. */
export function cleanText(value: string | undefined | null, max: number): string | null {
  if (!value) return null;
  const folded = value.replace(CONTROL, ' ').replace(LONE_SURROGATE, '').replace(/\s+/gu, ' ').trim();
  if (!folded) return null;
  const chars = Array.from(folded);
  if (chars.length <= max) return folded;
  return `${chars
    .slice(0, max - 1)
    .join('')
    .trimEnd()}…`;
}

/** An image URL of the page, absolute, http(s) only, not over-long; null otherwise. */
function imageUrlOf(value: string | undefined, base: URL): string | null {
  const text = cleanText(value, MAX_LINK_URL_LENGTH);
  if (!text) return null;
  try {
    const url = new URL(text, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.href.length > MAX_LINK_URL_LENGTH) return null;
    return url.href;
  } catch {
    return null;
  }
}

const WANTED = new Set([
  'og:title',
  'og:description',
  'og:site_name',
  'og:image',
  'og:image:url',
  'og:image:secure_url',
  'twitter:title',
  'twitter:description',
  'twitter:image',
  'twitter:image:src',
  'description',
]);

/**
 * Elements read at most. The tags a preview needs are at the top of a page; and htmlparser2's
 * stack of open elements costs time growing with its depth at each new one (100,000 nested
 * `<svg>` took 10 s), so a hostile page is read only this far.
 */
export const MAX_ELEMENTS = 5_000;

class EnoughRead extends Error {}

/** Reads the preview of `html`, a page found at `pageUrl` (relative image URLs resolve against it). */
export function parsePreview(html: string, pageUrl: URL): ParsedPreview {
  const meta = new Map<string, string>();
  let title: string | null = null;
  let inTitle = false;
  let titleText = '';
  let svgDepth = 0;
  let elements = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        elements += 1;
        if (elements > MAX_ELEMENTS) throw new EnoughRead();
        if (name === 'svg') svgDepth += 1;
        if (name === 'title' && title === null && svgDepth === 0) {
          inTitle = true;
          titleText = '';
        }
        if (name !== 'meta') return;
        const key = (attributes.property ?? attributes.name ?? '').trim().toLowerCase();
        const content = attributes.content;
        if (WANTED.has(key) && content !== undefined && !meta.has(key)) meta.set(key, content);
      },
      ontext(text) {
        if (inTitle) titleText += text;
      },
      onclosetag(name) {
        if (name === 'svg' && svgDepth > 0) svgDepth -= 1;
        if (name === 'title' && inTitle) {
          inTitle = false;
          title = titleText;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  try {
    parser.write(html);
    parser.end();
  } catch (error) {
    if (!(error instanceof EnoughRead)) throw error;
  }
  const first = (...keys: string[]) => {
    for (const key of keys) {
      const value = meta.get(key);
      if (value?.trim()) return value;
    }
    return undefined;
  };
  return {
    title: cleanText(first('og:title', 'twitter:title') ?? title ?? (inTitle ? titleText : null), TITLE_MAX),
    description: cleanText(first('og:description', 'twitter:description', 'description'), DESCRIPTION_MAX),
    siteName: cleanText(first('og:site_name'), SITE_NAME_MAX),
    imageUrl: imageUrlOf(
      first('og:image', 'og:image:secure_url', 'og:image:url', 'twitter:image', 'twitter:image:src'),
      pageUrl,
    ),
  };
}

/** The page's bytes as text: the charset its Content-Type names, else UTF-8 (bad bytes become U+FFFD). */
export function decodePage(body: Buffer, charset: string | null): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
