/** The signed-in member's sessions (Settings → Sessions): inputs and answers. Imports only zod. */
import { z } from 'zod';
import { entityIdSchema } from '../posts/post.schema.js';

export const sessionIdInput = z.object({ sessionId: entityIdSchema });
export type SessionIdInput = z.infer<typeof sessionIdInput>;

/** One login: where from (read from its User-Agent), when it began and was last seen. */
export const sessionSchema = z.strictObject({
  id: z.uuid(),
  /** "Firefox on Linux", "Safari on iPhone", "Unknown device" */
  device: z.string(),
  createdAt: z.iso.datetime(),
  /** Written when the session is used, at most once an hour; now for this device. */
  lastSeenAt: z.iso.datetime(),
  /** The session of the request that asked. */
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionSchema>;

export const sessionListResult = z.strictObject({ sessions: z.array(sessionSchema) });
export type SessionListResult = z.infer<typeof sessionListResult>;
export const endSessionsResult = z.strictObject({ ended: z.int().nonnegative() });
export type EndSessionsResult = z.infer<typeof endSessionsResult>;
