/** Reposts: the toggle's answer, shared by the procedure, the REST rows and OpenAPI. */
import { z } from 'zod';

export const repostResult = z.strictObject({
  reposted: z.boolean(),
  repostsCount: z.int().nonnegative(),
});
export type RepostResult = z.infer<typeof repostResult>;
