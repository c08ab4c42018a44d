import { randomUUID } from 'node:crypto';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Post } from './post.entity.js';

/**
 * A previous version of an edited post: its text, when it was written and when an edit replaced
 * it. Deleted with the post.
 */
export const PostRevision = defineEntity({
  name: 'PostRevision',
  tableName: 'post_revisions',
  indexes: [
    {
      name: 'post_revisions_post_replaced_at_index',
      expression:
        'create index "post_revisions_post_replaced_at_index" on "post_revisions" ("post_id", "replaced_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    post: () => p.manyToOne(Post).deleteRule('cascade'),
    content: p.text(),
    writtenAt: p.datetime(),
    replacedAt: p.datetime(),
  },
});
export type IPostRevision = InferEntity<typeof PostRevision>;
