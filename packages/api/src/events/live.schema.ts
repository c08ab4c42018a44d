/** The input of every live subscription: the id of the last event the client has (on reconnect). */
import { z } from 'zod';
import { ERROR_REASONS } from '../error-reasons.js';
import { text } from '../text.js';

export const liveInput = z
  .object({ lastEventId: text('Event id').max(200, ERROR_REASONS.EVENT_ID_INVALID).nullish() })
  .prefault({});
export type LiveInput = z.infer<typeof liveInput>;
