import { describe, expect, it } from 'vitest';
import {
  cleanText,
  DESCRIPTION_MAX,
  decodePage,
  MAX_ELEMENTS,
  parsePreview,
  SITE_NAME_MAX,
  TITLE_MAX,
} from './link-card.parse.js';
import { firstLink, MAX_LINK_URL_LENGTH, normalizeLinkUrl } from './link-card.url.js';

const PAGE = new URL('https://example.com/articles/1?x=1');

describe('parsePreview', () => {
  it('reads Open Graph first, resolving a relative image against the page', () => {
    const html = `<!doctype html><html><head>
      <title>The title tag</title>
      <meta property="og:title" content="OG title">
      <meta property="og:description" content="OG description">
      <meta property="og:site_name" content="Example">
      <meta property="og:image" content="/img/card.png">
      <meta name="twitter:title" content="Twitter title">
    </head><body></body></html>`;
    expect(parsePreview(html, PAGE)).toEqual({
      title: 'OG title',
      description: 'OG description',
      siteName: 'Example',
      imageUrl: 'https://example.com/img/card.png',
    });
  });

  it("falls back to Twitter's tags, then to <title> and the description meta", () => {
    const twitter = `<head><meta name="twitter:title" content="T title"><meta name="twitter:description" content="T desc">
      <meta name="twitter:image" content="https://cdn.example.com/t.jpg"><title>ignored</title></head>`;
    expect(parsePreview(twitter, PAGE)).toEqual({
      title: 'T title',
      description: 'T desc',
      siteName: null,
      imageUrl: 'https://cdn.example.com/t.jpg',
    });
    const plain =
      '<html><head><TITLE>  Just a\n title </TITLE><meta name="Description" content="About it"></head>';
    expect(parsePreview(plain, PAGE)).toEqual({
      title: 'Just a title',
      description: 'About it',
      siteName: null,
      imageUrl: null,
    });
    expect(parsePreview('<p>no head at all</p>', PAGE).title).toBeNull();
  });

  it('decodes entities in attributes and text', () => {
    const html = `<title>Tom &amp; Jerry &#8212; &lt;b&gt;</title>
      <meta property="og:description" content="caf&eacute; &quot;quoted&quot; &#x1F9CA;">`;
    const parsed = parsePreview(html, PAGE);
    expect(parsed.title).toBe('Tom & Jerry — <b>');
    expect(parsed.description).toBe('café "quoted" 🧊');
  });

  it('survives hostile HTML: scripts, comments, SVG titles, broken markup, control characters', () => {
    const html = `<head>
      <script>document.write('<meta property="og:title" content="from a script">')</script>
      <!-- <meta property="og:title" content="from a comment"> -->
      <svg><title>an icon</title></svg>
      <title>Real\u0000 title\u0007 \u202e</title>
      <meta property="og:image" content="javascript:alert(1)">
      <meta property="og:description" content="<script>alert(1)</script>">
      <meta property="og:site_name" content="\u0001\u0002">
      <div <<<>>> <meta property=og:title content=x`;
    const parsed = parsePreview(html, PAGE);
    expect(parsed.title).toBe('Real title \u202e');
    expect(parsed.imageUrl).toBeNull();
    // Text is text: React escapes it where it is shown.
    expect(parsed.description).toBe('<script>alert(1)</script>');
    expect(parsed.siteName).toBeNull();
    expect(
      parsePreview('<meta property="og:image" content="data:image/png;base64,AAAA">', PAGE).imageUrl,
    ).toBeNull();
    expect(
      parsePreview(`<meta property="og:image" content="https://x.io/${'a'.repeat(70_000)}">`, PAGE).imageUrl,
    ).toBeNull();
    // Deep nesting is read only MAX_ELEMENTS deep (it cost seconds), and a huge attribute is capped.
    expect(parsePreview(`${'<div>'.repeat(MAX_ELEMENTS)}<title>deep</title>`, PAGE).title).toBeNull();
    expect(parsePreview(`<title>first</title>${'<svg>'.repeat(200_000)}`, PAGE).title).toBe('first');
    expect(
      parsePreview(`<meta property="og:title" content="${'x'.repeat(900_000)}">`, PAGE).title,
    ).toHaveLength(TITLE_MAX);
  });

  it('caps the title, description and site name', () => {
    const html = `<meta property="og:title" content="${'t'.repeat(300)}">
      <meta property="og:description" content="${'d '.repeat(400)}">
      <meta property="og:site_name" content="${'🧊'.repeat(150)}">`;
    const parsed = parsePreview(html, PAGE);
    expect(parsed.title).toHaveLength(TITLE_MAX);
    expect(parsed.title?.endsWith('…')).toBe(true);
    expect(Array.from(parsed.description ?? '').length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(Array.from(parsed.siteName ?? '')).toHaveLength(SITE_NAME_MAX);
  });
});

describe('cleanText and decodePage', () => {
  it('drop control characters and lone surrogates, fold white space', () => {
    expect(cleanText('a\u0000b\u009f\tc\n\nd \ud800e', 100)).toBe('a b c d e');
    expect(cleanText('   ', 10)).toBeNull();
  });

  it('decode the named charset, else UTF-8', () => {
    expect(decodePage(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'iso-8859-1')).toBe('café');
    expect(decodePage(Buffer.from('café'), null)).toBe('café');
    expect(decodePage(Buffer.from('café'), 'no-such-charset')).toBe('café');
  });
});

describe('firstLink', () => {
  it('takes the first http(s) URL, normalized', () => {
    expect(firstLink('see https://Example.COM:443/a?b=1#frag, then http://other.io')).toBe(
      'https://example.com/a?b=1',
    );
    expect(firstLink('(at http://x.io/path).')).toBe('http://x.io/path');
    expect(firstLink('no links here, ftp://x.io nor javascript:alert(1)')).toBeNull();
  });

  it('gives nothing for hostile links', () => {
    expect(firstLink(`https://x.io/${'a'.repeat(70_000)}`)).toBeNull();
    expect(normalizeLinkUrl(`https://x.io/${'a'.repeat(MAX_LINK_URL_LENGTH)}`)).toBeNull();
    expect(firstLink('https://user:pw@x.io/')).toBeNull();
    expect(firstLink('javascript:alert(1)//https')).toBeNull();
    expect(normalizeLinkUrl('javascript:alert(1)')).toBeNull();
    expect(normalizeLinkUrl('https://')).toBeNull();
    // NUL inside a URL ends the match; what is left before it is a URL of its own.
    expect(firstLink('https://x.io/a\u0000b')).toBe('https://x.io/a%00b');
  });
});
