/** The author fields posts and comments carry (author.serializer.ts builds them), for their response schemas. */
import { z } from 'zod';

export const authorFieldsShape = {
  userId: z.uuid(),
  username: z.string(),
  userDisplayName: z.string(),
  userAvatarUrl: z.string().nullable(),
};
