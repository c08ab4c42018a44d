/** Profile look-ups. */
import { z } from 'zod';
import { pageInput } from '../../paging.js';
import { entityIdSchema } from '../posts/post.schema.js';

export const byUsernameInput = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(100),
});
export type ByUsernameInput = z.infer<typeof byUsernameInput>;

export const userIdInput = z.object({ userId: entityIdSchema });
export type UserIdInput = z.infer<typeof userIdInput>;

export const userPostsInput = pageInput.extend({ userId: entityIdSchema });
export type UserPostsInput = z.infer<typeof userPostsInput>;
