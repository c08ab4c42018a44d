/** The input of every live subscription: the id of the last event the client has (on reconnect). */
import { z } from 'zod';

export const liveInput = z
  .object({ lastEventId: z.string().max(200, 'Invalid event id').nullish() })
  .prefault({});
export type LiveInput = z.infer<typeof liveInput>;
