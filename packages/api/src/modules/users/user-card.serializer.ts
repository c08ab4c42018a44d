/** A public user card's row (user-card.sql.ts's columns) → the card (user-card.schema.ts). */
import type { UserCard } from './user-card.schema.js';

export interface UserCardRow {
  id: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  bio: string | null;
  followers_count: number;
}

export function toUserCard(row: UserCardRow): UserCard {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    bio: row.bio,
    followersCount: row.followers_count,
  };
}
