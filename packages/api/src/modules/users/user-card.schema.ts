/**
 * The public user card: a member as lists of people show them (Search's people, Who to follow),
 * public fields only, never the e-mail. Each list adds its own fields to this one shape
 * (search.schema.ts, suggestion.schema.ts); user-card.serializer.ts maps the rows
 * user-card.sql.ts selects.
 */
import { z } from 'zod';

export const userCardShape = {
  id: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  bio: z.string().nullable(),
  followersCount: z.int().nonnegative(),
};

export const userCardSchema = z.strictObject(userCardShape);
export type UserCard = z.infer<typeof userCardSchema>;
