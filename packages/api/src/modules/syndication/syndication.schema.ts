/** What the sitemap is made of (syndication.service.ts): plain types, no procedure takes them. */

export type SitemapKind = 'profile' | 'tag' | 'post';

export interface SitemapRow {
  kind: SitemapKind;
  /** the username, the folded tag or the post's id */
  key: string;
  lastmod: Date;
}

/** A sitemap file: its URLs, or (past SITEMAP_URLS_MAX) an index naming pages 1..pages. */
export type SitemapPage = { kind: 'urlset'; rows: SitemapRow[] } | { kind: 'index'; pages: number };
