/** Follow forms: one definition for the procedures and the REST rows. */
import { z } from 'zod';
import { entityIdSchema } from '../posts/post.schema.js';

/** The member to follow or unfollow; an id that names no one is 404, checked by the service. */
export const followInput = z.object({ userId: entityIdSchema });
export type FollowInput = z.infer<typeof followInput>;

/** Whether the caller now follows them, and how many do. */
export const followResult = z.strictObject({
  following: z.boolean(),
  followersCount: z.int().nonnegative(),
});
export type FollowResult = z.infer<typeof followResult>;
