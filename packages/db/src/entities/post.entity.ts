import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * One image of a post as the `images` column stores it: the object path, the size the upload was
 * stored at (null if unknown) and its description (null when none was given).
 */
export interface PostImageData {
  url: string;
  width: number | null;
  height: number | null;
  alt: string | null;
  /** shown blurred until the viewer asks (absent on images stored before issue #49: false) */
  sensitive?: boolean;
}

/**
 * A post in the feed. likesCount, commentsCount and repostsCount are denormalised counters, changed
 * in the same transaction as the Like, Comment or Repost row they count. `pinnedAt`: its author
 * pinned it to the top of their profile (at most 3 at a time).
 */
export const Post = defineEntity({
  name: 'Post',
  tableName: 'posts',
  indexes: [
    {
      name: 'posts_created_at_id_index',
      expression: 'create index "posts_created_at_id_index" on "posts" ("created_at" desc, "id" desc)',
    },
    {
      name: 'posts_author_created_at_id_index',
      expression:
        'create index "posts_author_created_at_id_index" on "posts" ("author_id", "created_at" desc, "id" desc)',
    },
    {
      name: 'posts_live_author_created_at_id_index',
      expression:
        'create index "posts_live_author_created_at_id_index" on "posts" ("author_id", "created_at" desc, "id" desc) where "removed_at" is null',
    },
    {
      // The Following feed's walk over everyone's newest live posts, index-only.
      name: 'posts_live_created_at_id_author_index',
      expression:
        'create index "posts_live_created_at_id_author_index" on "posts" ("created_at" desc, "id" desc) include ("author_id") where "removed_at" is null',
    },
    {
      name: 'posts_quote_of_index',
      expression: 'create index "posts_quote_of_index" on "posts" ("quote_of") where "quote_of" is not null',
    },
    {
      // A profile's pinned posts (few, and rare among posts).
      name: 'posts_pinned_index',
      expression:
        'create index "posts_pinned_index" on "posts" ("author_id", "pinned_at" desc) where "pinned_at" is not null',
    },
    {
      name: 'posts_image_url_index',
      expression:
        'create index "posts_image_url_index" on "posts" ("image_url") where "image_url" is not null',
    },
    {
      // Removed posts are few: tag counts and trending take them out through this index.
      name: 'posts_removed_created_at_index',
      expression:
        'create index "posts_removed_created_at_index" on "posts" ("created_at") where "removed_at" is not null',
    },
    {
      name: 'posts_images_index',
      expression:
        'create index "posts_images_index" on "posts" using gin ("images" jsonb_path_ops) where "images" <> \'[]\'::jsonb',
    },
    {
      name: 'posts_search_vector_index',
      expression: 'create index "posts_search_vector_index" on "posts" using gin ("search_vector")',
    },
  ],
  // As PostgreSQL prints them (pg_get_constraintdef), which is what the schema comparison reads.
  checks: [
    { name: 'posts_likes_count_check', expression: 'likes_count >= 0' },
    { name: 'posts_comments_count_check', expression: 'comments_count >= 0' },
    { name: 'posts_reposts_count_check', expression: 'reposts_count >= 0' },
    { name: 'posts_image_url_check', expression: "image_url ~~ '/objects/%'::text" },
    { name: 'posts_images_check', expression: "jsonb_typeof(images) = 'array'::text" },
    { name: 'posts_content_warning_check', expression: 'char_length(content_warning) <= 200' },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    author: () => p.manyToOne(User).deleteRule('cascade'),
    content: p.text(),
    /** a warning the card shows instead of the text and images until the viewer asks; null when none */
    contentWarning: p.text().nullable(),
    /** the first image's object path (kept beside `images` for the readers of one image) */
    imageUrl: p.text().nullable(),
    /** up to 4 images in their order, each with its stored size and description (PostImageData) */
    images: p.json<PostImageData[]>().defaultRaw(`'[]'`),
    likesCount: p.integer().default(0),
    commentsCount: p.integer().default(0),
    repostsCount: p.integer().default(0),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    /** when the author last edited it; null if never */
    editedAt: p.datetime().nullable(),
    /** Set when a moderator removed it: hidden from every read, kept for the audit. */
    removedAt: p.datetime().nullable(),
    /** the post it quotes (embeds); no foreign key: a deleted quoted post leaves its id */
    quoteOf: p.uuid().nullable(),
    /** when its author pinned it to their profile; null when not pinned */
    pinnedAt: p.datetime().nullable(),
  },
});
export type IPost = InferEntity<typeof Post>;
