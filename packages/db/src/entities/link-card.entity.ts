import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Post } from './post.entity.js';

/**
 * What a page said about itself (Open Graph, Twitter tags or its <title>), kept per normalized
 * URL for a day, so a link posted by a thousand members is fetched once. A row whose `title` is
 * null is a fetch that found nothing to show (an error, not HTML, no title): it is kept a day too,
 * so a broken link is not fetched again for every post. `imageKey` is an upload of our own
 * (uploaded_objects), re-encoded by the upload pipeline; the page's own image URL is never kept.
 */
export const LinkPreview = defineEntity({
  name: 'LinkPreview',
  tableName: 'link_previews',
  properties: {
    url: p.text().primary(),
    fetchedAt: p.datetime(),
    title: p.string().length(200).nullable(),
    description: p.string().length(500).nullable(),
    siteName: p.string().length(100).nullable(),
    imageKey: p.string().length(400).nullable(),
  },
});
export type ILinkPreview = InferEntity<typeof LinkPreview>;

/**
 * The link of a post that shows a card: its first http(s) URL, normalized (the key of
 * link_previews). No row: the post has no link, or its author removed the card.
 */
export const PostLink = defineEntity({
  name: 'PostLink',
  tableName: 'post_links',
  properties: {
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    url: p.text(),
  },
});
export type IPostLink = InferEntity<typeof PostLink>;
