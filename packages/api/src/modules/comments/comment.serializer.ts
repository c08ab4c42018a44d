/** The public comment shape (comment.schema.ts's `commentSchema`), built from a row of comment.repository's select. */
import type { AsText, IComment, Row } from '@cubes/db';
import type { MentionDto } from '../mentions/mention.schema.js';
import { isoDate } from '../posts/post.serializer.js';
import { type AuthorRow, authorFields } from '../users/author.serializer.js';
import type { CommentDto } from './comment.schema.js';

/** A comment with its author's public fields; `created_at` as ISO text with microseconds. */
export type CommentRow = AuthorRow &
  AsText<Pick<Row<IComment>, 'id' | 'content' | 'created_at'>, 'created_at'> & {
    /** the members it mentions (mention.sql.ts); a new comment's are added by the service */
    mentions?: MentionDto[] | null;
  };

export function toCommentDto(row: CommentRow): CommentDto {
  return {
    id: row.id,
    ...authorFields(row),
    content: row.content,
    createdAt: isoDate(row.created_at),
    mentions: row.mentions ?? [],
  };
}
