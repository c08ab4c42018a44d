/** The author fields that posts and comments carry, from a row joined on users. */
export interface AuthorRow {
  author_id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
}

export interface AuthorFields {
  userId: string;
  username: string;
  userDisplayName: string;
  userAvatarUrl: string | null;
}

export function authorFields(row: AuthorRow): AuthorFields {
  return {
    userId: row.author_id,
    username: row.username,
    userDisplayName: row.display_name,
    userAvatarUrl: row.avatar_url,
  };
}
