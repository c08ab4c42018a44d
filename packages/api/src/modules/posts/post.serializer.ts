/**
 * The public post shape (the `Post` schema of the OpenAPI document), built field by field from a
 * joined row.
 */
import type { Page } from '../../paging.js';
import { type AuthorRow, authorFields } from '../users/author.serializer.js';

export interface PostDto {
  id: string;
  userId: string;
  username: string;
  userDisplayName: string;
  userAvatarUrl: string | null;
  content: string;
  imageUrl: string | null;
  likesCount: number;
  commentsCount: number;
  /** whether the viewer likes it; false when logged out */
  isLiked: boolean;
  createdAt: Date;
  /** when the author last edited it; null if never */
  editedAt: Date | null;
}

/** A page of a keyset-paged list; nextCursor is null on the last page. */
export type PostPage = Page<PostDto>;

/** A row of post.repository's select: the post, its author and the viewer's like. */
export interface PostRow extends AuthorRow {
  id: string;
  content: string;
  image_url: string | null;
  likes_count: number;
  comments_count: number;
  /** ISO text with microseconds (see isoTime) */
  created_at: string;
  edited_at: string | null;
  is_liked: boolean;
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
    createdAt: new Date(row.created_at),
    editedAt: row.edited_at === null ? null : new Date(row.edited_at),
  };
}
