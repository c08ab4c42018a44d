import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Post } from './post.entity.js';
import { User } from './user.entity.js';

/**
 * A `#tag` a post carries, folded (text-links.ts in @cubes/api). The author and the post's time
 * are copied here so the tag page (tag, time) and trending (time window, tag, author) are read
 * from this table's indexes, and Search's tag prefixes from the tag in code-point order; the post's removal and its author's suspension are checked on posts.
 */
export const PostTag = defineEntity({
  name: 'PostTag',
  tableName: 'post_tags',
  indexes: [
    {
      name: 'post_tags_tag_created_at_index',
      expression:
        'create index "post_tags_tag_created_at_index" on "post_tags" ("tag", "created_at" desc, "post_id" desc) include ("author_id")',
    },
    {
      name: 'post_tags_created_at_index',
      expression:
        'create index "post_tags_created_at_index" on "post_tags" ("created_at") include ("tag", "author_id", "post_id")',
    },
    { name: 'post_tags_author_id_index', properties: ['author'] },
    {
      name: 'post_tags_tag_prefix_index',
      expression: 'create index "post_tags_tag_prefix_index" on "post_tags" ("tag" collate "C")',
    },
  ],
  properties: {
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    tag: p.string().length(64).primary(),
    author: () => p.manyToOne(User).deleteRule('cascade'),
    createdAt: p.datetime(),
  },
});
export type IPostTag = InferEntity<typeof PostTag>;
