/**
 * The author fields that posts and comments carry, built from a row joined on users (`u`): the
 * author's id as the content's `author_id`, and their public name and avatar.
 */
import type { IUser, Row } from '@cubes/db';
import type { z } from 'zod';
import type { authorFieldsShape } from './author.schema.js';

/** The author columns of a post or comment row: its `author_id` and the joined user's public fields. */
export type AuthorRow = Pick<Row<IUser>, 'username' | 'display_name' | 'avatar_url'> & { author_id: string };

export type AuthorFields = { [K in keyof typeof authorFieldsShape]: z.infer<(typeof authorFieldsShape)[K]> };

export function authorFields(row: AuthorRow): AuthorFields {
  return {
    userId: row.author_id,
    username: row.username,
    userDisplayName: row.display_name,
    userAvatarUrl: row.avatar_url,
  };
}
