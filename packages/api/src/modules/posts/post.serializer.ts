/**
 * The public post shape (post.schema.ts's `postSchema`, the `Post` of the OpenAPI document),
 * built field by field from a row of post.repository's select.
 */
import type { AsText, IPost, Row } from '@cubes/db';
import { type AuthorRow, authorFields } from '../users/author.serializer.js';
import type { PostDto } from './post.schema.js';

/** A row of post.repository's select: the post, its author, the viewer's like and bookmark; times as ISO text. */
export type PostRow = AuthorRow &
  AsText<
    Pick<
      Row<IPost>,
      'id' | 'content' | 'image_url' | 'likes_count' | 'comments_count' | 'created_at' | 'edited_at'
    >,
    'created_at' | 'edited_at'
  > & { is_liked: boolean; is_bookmarked: boolean };

/** A timestamp as the wire carries it: ISO 8601 in UTC, to the millisecond. */
export function isoDate(text: string | number): string {
  return new Date(text).toISOString();
}

export function toPostDto(row: PostRow): PostDto {
  return {
    id: row.id,
    ...authorFields(row),
    content: row.content,
    imageUrl: row.image_url,
    likesCount: row.likes_count,
    commentsCount: row.comments_count,
    isLiked: row.is_liked,
    isBookmarked: row.is_bookmarked,
    createdAt: isoDate(row.created_at),
    // `== null`: search.service's select has no edited_at column (its posts answer null, as before).
    editedAt: row.edited_at == null ? null : isoDate(row.edited_at),
  };
}

// Other modules read these names here.
export type { PostDto, PostPage } from './post.schema.js';
