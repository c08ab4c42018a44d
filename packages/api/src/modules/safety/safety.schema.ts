/** Block and mute: one definition for the procedures, the REST rows and the web. */
import { z } from 'zod';
import { timestamp } from '../../output.js';
import { pageInputWith, pageOf } from '../../paging.js';
import { entityIdSchema } from '../posts/post.schema.js';

/** The member to block, unblock, mute or unmute; an id that names no one is 404. */
export const safetyTargetInput = z.object({ userId: entityIdSchema });
export type SafetyTargetInput = z.infer<typeof safetyTargetInput>;

export const SAFETY_LIST_PAGE_SIZE = 50;

/** Settings' lists of blocked and muted members, newest first, in pages. */
export const safetyListInput = pageInputWith(SAFETY_LIST_PAGE_SIZE);
export type SafetyListInput = z.infer<typeof safetyListInput>;

// Responses, as JSON (see post.schema.ts on response schemas).

export const blockResult = z.strictObject({ blocked: z.boolean() });
export type BlockResult = z.infer<typeof blockResult>;
export const muteResult = z.strictObject({ muted: z.boolean() });
export type MuteResult = z.infer<typeof muteResult>;

/** A member in the blocked or muted list, with when they were added. */
export const safetyListEntrySchema = z.strictObject({
  userId: z.uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  /** when they were blocked or muted (a Date; REST has no row for these lists) */
  since: timestamp(),
});
export type SafetyListEntry = z.infer<typeof safetyListEntrySchema>;

/** A page of the blocked or muted list. */
export const safetyListPage = pageOf(safetyListEntrySchema);

/** Where the viewer stands with another member. */
export const relationshipSchema = z.strictObject({
  /** the viewer blocked them */
  blocking: z.boolean(),
  /** they blocked the viewer */
  blockedBy: z.boolean(),
  /** the viewer muted them */
  muting: z.boolean(),
});
export type Relationship = z.infer<typeof relationshipSchema>;
