import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/**
 * A member keeps a post to read later, at most once: the pair is the primary key. Private: only
 * its owner ever reads it. The (user, created_at desc, post) index serves the Bookmarks list.
 */
export const Bookmark = defineEntity({
  name: 'Bookmark',
  tableName: 'bookmarks',
  indexes: [
    { name: 'bookmarks_post_id_index', properties: ['post'] },
    {
      name: 'bookmarks_user_created_at_index',
      expression:
        'create index "bookmarks_user_created_at_index" on "bookmarks" ("user_id", "created_at" desc, "post_id" desc)',
    },
  ],
  properties: {
    user: () => p.manyToOne(User).primary().deleteRule('cascade'),
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
  },
});
export type IBookmark = InferEntity<typeof Bookmark>;
