/** Follow forms: one definition for the procedures and the REST rows. */
import { z } from 'zod';
import { pageInputWith, pageOf } from '../../paging.js';
import { entityIdSchema } from '../posts/post.schema.js';

/** The member to follow or unfollow; an id that names no one is 404, checked by the service. */
export const followInput = z.object({ userId: entityIdSchema });
export type FollowInput = z.infer<typeof followInput>;

/** How many members a page of a Followers or Following list holds unless asked otherwise. */
export const FOLLOW_LIST_PAGE_SIZE = 20;

/** A page of whom `userId` follows, or of who follows them: most recent follow first. */
export const followListInput = pageInputWith(FOLLOW_LIST_PAGE_SIZE).extend({ userId: entityIdSchema });
export type FollowListInput = z.infer<typeof followListInput>;

// Responses, as JSON (see post.schema.ts on response schemas).

/** Whether the caller now follows them, and how many do. */
export const followResult = z.strictObject({
  following: z.boolean(),
  followersCount: z.int().nonnegative(),
});
export type FollowResult = z.infer<typeof followResult>;

/**
 * A member in a Followers or Following list. `isFollowing`: the caller follows them (false for a
 * visitor and for the caller's own row); `followersCount` is how many follow them, for the Follow
 * button's count.
 */
export const followListEntrySchema = z.strictObject({
  id: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  bio: z.string().nullable(),
  followersCount: z.int().nonnegative(),
  isFollowing: z.boolean(),
});
export type FollowListEntry = z.infer<typeof followListEntrySchema>;

/** A page of a Followers or Following list. */
export const followListPage = pageOf(followListEntrySchema);
export type FollowListPage = z.infer<typeof followListPage>;
